//! The import direction of the crate, checked on every `cargo test`.
//!
//! Every file under `src/` is read as text and each of its imports of the crate's own items
//! becomes an arrow from the file to the file of the module it names: `use crate::...`
//! (grouped trees such as `use crate::{a::X, b}` included), inline paths such as
//! `crate::a::b::f()`, and `super::` and `self::` paths (the binary's `crease::` paths too). A path is
//! resolved to the longest prefix of its module path that is a file, so `crate::rules::Seat`
//! points at `src/rules/mod.rs` and `crate::rules::ctg::state::Phase` at
//! `src/rules/ctg/state.rs`. Comments and string literals are skipped: a doc link is no
//! dependency.
//!
//! Two checks, each listing every offending arrow (`file -> file : names`):
//!
//! * the floors: a top-level module imports only the modules below it in [`FLOORS`];
//! * no circle among files: no set of two or more files that reach each other.
//!
//! A parent module's own `mod child;` declarations and its `pub use child::...` re-exports of
//! its descendants are its facade, not dependencies: the parent names its children so the
//! rest of the crate can reach them, while its children import the parent's items. Counting
//! those as arrows would make every module with a re-export a circle. For the same reason a
//! parent's paths that start with a child's name (`engine::decide(...)` in a game's `mod.rs`
//! after `mod engine;`, `use journal::CheckFences`) are not read: a parent delegating to its
//! files is how every module here is built, the rules' first of all.
//!
//! The checker is a plain function of `(path, text)` pairs, so its own tests below feed it
//! synthetic files and see it catch a circle and a back-arrow.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The top-level modules, top floor first: a module may import only the modules after it
/// (and itself). Why each floor sits where it does:
const FLOORS: &[&str] = &[
    // The binary: parses the command line and hands it to `cli`.
    "main",
    // The subcommands: each assembles whatever it runs (the server, the simulator, bots).
    "cli",
    // The assembled server: every layer wired together, so above all of them.
    "app",
    // The assembly of every module's settings into `crease serve`'s flags.
    "config",
    // The HTTP routers: the edge, calling into sockets, matches, accounts and the store.
    "http",
    // The API's error type: what the routers answer, built from the layers below.
    "error",
    // One WebSocket session: decodes frames and talks to a match's handle.
    "gateway",
    // The accept loop and connection limits: knows sockets, not what runs on them.
    "listener",
    // The admin actions: bans reach accounts (sockets) and matches (forfeits), so above both.
    "moderation",
    // Leagues and knockouts: fixtures become matches through the lobby.
    "competitions",
    // Tickets and passes: creates matches through the lobby.
    "matchmaking",
    // The match actors, the lobby and the game registry.
    "matches",
    // Players, sessions and passwords, on the store.
    "accounts",
    // Leases, routing and failover over NATS, on the store.
    "cluster",
    // Every SQL query, on the record's words.
    "store",
    // What is rated and how: pure decisions the store and matches apply.
    "ratings",
    // Parsing at the edge into types that cannot hold bad values: frames become the
    // protocol's messages here, so input sits on the protocol.
    "input",
    // The wire's messages: shapes of the record and the rules' views, no behaviour.
    "protocol",
    // Seeds, tokens and replay, over the rules and the record.
    "fairness",
    // The words a match's history is written in, shared by every layer above.
    "record",
    // The games themselves: pure and deterministic.
    "rules",
    // Metrics, callable from anywhere.
    "telemetry",
    // Where log lines go: the floor under everything.
    "logging",
];

/// One import arrow: `from` names `names` of `to`.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Arrow {
    from: String,
    to: String,
    names: BTreeSet<String>,
}

impl std::fmt::Display for Arrow {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let names: Vec<&str> = self.names.iter().map(String::as_str).collect();
        write!(f, "{} -> {} : {}", self.from, self.to, names.join(", "))
    }
}

/// The module path of a source file: `src/lib.rs` is the root (`[]`), `src/main.rs` the
/// binary (`["main"]`), `src/a/mod.rs` and `src/a.rs` are `["a"]`, `src/a/b.rs` `["a", "b"]`.
fn module_path(file: &str) -> Vec<String> {
    let relative = file.strip_prefix("src/").unwrap_or(file);
    let relative = relative.strip_suffix(".rs").unwrap_or(relative);
    if relative == "lib" {
        return Vec::new();
    }
    let mut segments: Vec<String> = relative.split('/').map(str::to_string).collect();
    if segments.last().is_some_and(|last| last == "mod") {
        segments.pop();
    }
    segments
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Token {
    Ident(String),
    /// `::`
    Path,
    Punct(char),
}

/// The file's tokens that matter for paths: identifiers, `::` and single punctuation;
/// whitespace, comments, string, char and number literals and lifetimes are dropped.
fn tokens(text: &str) -> Vec<Token> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c.is_whitespace() {
            i += 1;
        } else if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            while i < chars.len() {
                if chars[i] == '/' && chars.get(i + 1) == Some(&'*') {
                    depth += 1;
                    i += 2;
                } else if chars[i] == '*' && chars.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
        } else if c == '"' {
            i = skip_string(&chars, i + 1, 0);
        } else if (c == 'r' || c == 'b' || c == 'c') && raw_string_start(&chars, i).is_some() {
            let (body, hashes) = raw_string_start(&chars, i).unwrap_or((i, 0));
            i = skip_string(&chars, body, hashes);
        } else if (c == 'b' || c == 'c') && next == Some('"') {
            i = skip_string(&chars, i + 2, 0);
        } else if c == '\'' {
            i = skip_char_or_lifetime(&chars, i);
        } else if c == 'r' && next == Some('#') {
            // A raw identifier (`r#type`): the identifier follows.
            i += 2;
        } else if c.is_alphabetic() || c == '_' {
            let start = i;
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            out.push(Token::Ident(chars[start..i].iter().collect()));
        } else if c.is_ascii_digit() {
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_' || chars[i] == '.') {
                i += 1;
            }
        } else if c == ':' && next == Some(':') {
            out.push(Token::Path);
            i += 2;
        } else {
            out.push(Token::Punct(c));
            i += 1;
        }
    }
    out
}

/// `r"`, `r#"`, `br"`, `cr#"` ...: where the body starts and how many `#` close it.
fn raw_string_start(chars: &[char], i: usize) -> Option<(usize, usize)> {
    let mut j = i;
    if chars.get(j) == Some(&'b') || chars.get(j) == Some(&'c') {
        j += 1;
    }
    if chars.get(j) != Some(&'r') {
        return None;
    }
    j += 1;
    let mut hashes = 0;
    while chars.get(j) == Some(&'#') {
        hashes += 1;
        j += 1;
    }
    (chars.get(j) == Some(&'"')).then_some((j + 1, hashes))
}

/// Past the closing quote (and `hashes` `#`) of a string whose body starts at `i`.
fn skip_string(chars: &[char], mut i: usize, hashes: usize) -> usize {
    while i < chars.len() {
        if hashes == 0 && chars[i] == '\\' {
            i += 2;
        } else if chars[i] == '"' && (0..hashes).all(|k| chars.get(i + 1 + k) == Some(&'#')) {
            return i + 1 + hashes;
        } else {
            i += 1;
        }
    }
    i
}

/// Past a char literal (`'a'`, `'\n'`, `'\u{1F600}'`) or a lifetime (`'a`).
fn skip_char_or_lifetime(chars: &[char], i: usize) -> usize {
    if chars.get(i + 1) == Some(&'\\') {
        // Past the escaped character, which may be a quote itself (`'\''`).
        let mut j = i + 3;
        while j < chars.len() && chars[j] != '\'' {
            j += 1;
        }
        return j + 1;
    }
    if chars.get(i + 2) == Some(&'\'') {
        return i + 3;
    }
    // A lifetime: the identifier after the quote is consumed as a normal word, harmlessly.
    i + 1
}

/// One path a file names, as written, with where it stands.
struct Named {
    /// The module path the path is relative to (the file's, plus any inline `mod x { }`).
    scope: Vec<String>,
    segments: Vec<String>,
    /// Written in a `pub use` (any `pub(...)` too): a re-export.
    reexport: bool,
}

fn is_ident(token: Option<&Token>) -> Option<&str> {
    match token {
        Some(Token::Ident(word)) => Some(word),
        _ => None,
    }
}

/// Calls `visit(index, scope)` for each token with the module scope it stands in.
fn walk_scopes(tokens: &[Token], file_scope: &[String], mut visit: impl FnMut(usize, &[String])) {
    let mut scope = file_scope.to_vec();
    // For each open brace: whether it opened an inline module.
    let mut braces: Vec<bool> = Vec::new();
    let mut i = 0;
    while i < tokens.len() {
        visit(i, &scope);
        match &tokens[i] {
            Token::Ident(word)
                if word == "mod"
                    && is_ident(tokens.get(i + 1)).is_some()
                    && tokens.get(i + 2) == Some(&Token::Punct('{')) =>
            {
                visit(i + 1, &scope);
                scope.push(is_ident(tokens.get(i + 1)).unwrap_or_default().to_string());
                braces.push(true);
                i += 3;
                continue;
            }
            Token::Punct('{') => braces.push(false),
            Token::Punct('}') => {
                let closes_a_module = braces.pop() == Some(true);
                if closes_a_module {
                    scope.pop();
                }
            }
            _ => {}
        }
        i += 1;
    }
}

/// Pushes onto `out` every full path of the use tree at `tokens[i]`, each below `prefix`;
/// returns the index past the tree.
fn use_tree(tokens: &[Token], mut i: usize, prefix: &[String], out: &mut Vec<Vec<String>>) -> usize {
    let mut path = prefix.to_vec();
    loop {
        match tokens.get(i) {
            Some(Token::Ident(word)) => {
                path.push(word.clone());
                i += 1;
                if is_ident(tokens.get(i)) == Some("as") {
                    i += 2;
                }
                if tokens.get(i) == Some(&Token::Path) {
                    i += 1;
                    continue;
                }
                out.push(path);
                return i;
            }
            Some(Token::Punct('*')) => {
                path.push("*".to_string());
                out.push(path);
                return i + 1;
            }
            Some(Token::Punct('{')) => {
                i += 1;
                while tokens.get(i).is_some() && tokens.get(i) != Some(&Token::Punct('}')) {
                    i = use_tree(tokens, i, &path, out);
                    if tokens.get(i) == Some(&Token::Punct(',')) {
                        i += 1;
                    }
                }
                return i + 1;
            }
            _ => {
                if path.len() > prefix.len() {
                    out.push(path);
                }
                return i;
            }
        }
    }
}

/// Every crate path a file names: its `use` trees and inline paths.
fn named_paths(file: &str, text: &str) -> Vec<Named> {
    let tokens = tokens(text);
    let file_scope = module_path(file);
    // The binary names the library by its crate name.
    let roots: &[&str] = if file_scope == ["main"] {
        &["crate", "super", "self", "crease"]
    } else {
        &["crate", "super", "self"]
    };
    let mut named = Vec::new();
    let mut skip_until = 0;
    walk_scopes(&tokens, &file_scope, |i, scope| {
        if i < skip_until {
            return;
        }
        let word = is_ident(tokens.get(i));
        if word == Some("use") {
            let reexport = match i.checked_sub(1).map(|before| &tokens[before]) {
                Some(Token::Ident(before)) => before == "pub",
                Some(Token::Punct(')')) => true,
                _ => false,
            };
            let mut start = i + 1;
            if tokens.get(start) == Some(&Token::Path) {
                start += 1;
            }
            let mut paths = Vec::new();
            skip_until = use_tree(&tokens, start, &[], &mut paths);
            for segments in paths {
                named.push(Named {
                    scope: scope.to_vec(),
                    segments,
                    reexport,
                });
            }
            return;
        }
        let Some(word) = word else { return };
        let after_path = i
            .checked_sub(1)
            .is_some_and(|before| matches!(tokens[before], Token::Path | Token::Punct('.')));
        if after_path || !roots.contains(&word) || tokens.get(i + 1) != Some(&Token::Path) {
            return;
        }
        let mut segments = vec![word.to_string()];
        let mut j = i + 1;
        while tokens.get(j) == Some(&Token::Path) {
            match is_ident(tokens.get(j + 1)) {
                Some(next) => segments.push(next.to_string()),
                None => break,
            }
            j += 2;
        }
        skip_until = j;
        named.push(Named {
            scope: scope.to_vec(),
            segments,
            reexport: false,
        });
    });
    // A use path from no root is an external crate's, or a parent's into its children.
    named.retain(|path| roots.contains(&path.segments[0].as_str()));
    named
}

/// `segments` as an absolute module path (`crate::`, `super::` and `self::` resolved against
/// `scope`), and the name it imports.
fn absolute(scope: &[String], segments: &[String]) -> (Vec<String>, String) {
    let mut path: Vec<String> = Vec::new();
    let mut rest = segments;
    match segments.first().map(String::as_str) {
        Some("self") => {
            path = scope.to_vec();
            rest = &segments[1..];
        }
        Some("super") => {
            path = scope.to_vec();
            while rest.first().map(String::as_str) == Some("super") {
                path.pop();
                rest = &rest[1..];
            }
        }
        // `crate::`, or the binary's `crease::`.
        _ => rest = &segments[1..],
    }
    let mut name = rest.last().cloned().unwrap_or_default();
    // `use super::{self}`, `use crate::a::*`: the module itself, named by its last segment.
    if name == "self" || name == "*" || name.is_empty() {
        rest = &rest[..rest.len().saturating_sub(1)];
        let module = path.iter().chain(rest).next_back().cloned().unwrap_or_default();
        name = if name == "*" {
            format!("{module}::*")
        } else {
            module
        };
    }
    path.extend(rest.iter().filter(|segment| *segment != "self").cloned());
    (path, name)
}

/// The import arrows among `files` (`(path under the crate, text)`), one per pair of files.
fn arrows(files: &[(String, String)]) -> Vec<Arrow> {
    let by_module: BTreeMap<Vec<String>, &str> = files
        .iter()
        .map(|(file, _)| (module_path(file), file.as_str()))
        .collect();
    let mut found: BTreeMap<(String, String), BTreeSet<String>> = BTreeMap::new();
    for (file, text) in files {
        let own = module_path(file);
        for path in named_paths(file, text) {
            // The binary's `crate::` is itself: only its `crease::` paths reach the library.
            if own == ["main"] && path.segments[0] != "crease" {
                continue;
            }
            let (target, name) = absolute(&path.scope, &path.segments);
            if path.reexport && target.len() > own.len() && target.starts_with(&own) {
                continue; // The facade: a re-export of the file's own descendant.
            }
            let to = (0..=target.len())
                .rev()
                .find_map(|len| Some((len, *by_module.get(&target[..len])?)));
            let Some((len, to)) = to else { continue };
            if to != file {
                // What it names inside that file (`Skill::AddOne`), or the module itself.
                let inside = target[len..].join("::");
                found
                    .entry((file.clone(), to.to_string()))
                    .or_default()
                    .insert(if inside.is_empty() { name } else { inside });
            }
        }
    }
    found
        .into_iter()
        .map(|((from, to), names)| Arrow { from, to, names })
        .collect()
}

/// The top-level module a file belongs to (`None` for the crate root, `src/lib.rs`).
fn top_module(file: &str) -> Option<String> {
    module_path(file).first().cloned()
}

/// Arrows that point up (or to a module missing from `floors`).
fn floor_violations(arrows: &[Arrow], floors: &[&str]) -> Vec<String> {
    let floor = |module: &str| floors.iter().position(|name| *name == module);
    let mut violations = Vec::new();
    for arrow in arrows {
        let (Some(from), Some(to)) = (top_module(&arrow.from), top_module(&arrow.to)) else {
            continue;
        };
        if from == to {
            continue;
        }
        match (floor(&from), floor(&to)) {
            (Some(high), Some(low)) if high < low => {}
            (Some(_), Some(_)) => violations.push(format!("{arrow}")),
            _ => violations.push(format!("{arrow} (a module missing from FLOORS)")),
        }
    }
    violations
}

/// Sets of two or more files that reach each other (Tarjan's strongly connected components),
/// each with the arrows inside it.
fn circles(arrows: &[Arrow]) -> Vec<Vec<String>> {
    let mut nodes: BTreeSet<&str> = BTreeSet::new();
    let mut edges: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for arrow in arrows {
        nodes.insert(&arrow.from);
        nodes.insert(&arrow.to);
        edges.entry(&arrow.from).or_default().push(&arrow.to);
    }
    struct Tarjan<'a> {
        edges: &'a BTreeMap<&'a str, Vec<&'a str>>,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        on_stack: BTreeSet<&'a str>,
        components: Vec<Vec<&'a str>>,
    }
    impl<'a> Tarjan<'a> {
        fn visit(&mut self, node: &'a str) {
            let index = self.index.len();
            self.index.insert(node, index);
            self.low.insert(node, index);
            self.stack.push(node);
            self.on_stack.insert(node);
            for &next in self.edges.get(node).into_iter().flatten() {
                if !self.index.contains_key(next) {
                    self.visit(next);
                    let low = self.low[node].min(self.low[next]);
                    self.low.insert(node, low);
                } else if self.on_stack.contains(next) {
                    let low = self.low[node].min(self.index[next]);
                    self.low.insert(node, low);
                }
            }
            if self.low[node] == self.index[node] {
                let mut component = Vec::new();
                while let Some(member) = self.stack.pop() {
                    self.on_stack.remove(member);
                    component.push(member);
                    if member == node {
                        break;
                    }
                }
                self.components.push(component);
            }
        }
    }
    let mut tarjan = Tarjan {
        edges: &edges,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        components: Vec::new(),
    };
    for node in &nodes {
        if !tarjan.index.contains_key(node) {
            tarjan.visit(node);
        }
    }
    let mut found: Vec<Vec<String>> = tarjan
        .components
        .into_iter()
        .filter(|component| component.len() > 1)
        .map(|component| {
            let members: BTreeSet<&str> = component.into_iter().collect();
            arrows
                .iter()
                .filter(|arrow| members.contains(arrow.from.as_str()) && members.contains(arrow.to.as_str()))
                .map(|arrow| format!("{arrow}"))
                .collect()
        })
        .collect();
    found.sort();
    found
}

/// Every `src/**/*.rs` as `(path from the crate root, text)`.
fn crate_sources() -> Vec<(String, String)> {
    fn scan(root: &Path, dir: &Path, files: &mut Vec<(String, String)>) {
        let mut entries: Vec<_> = std::fs::read_dir(dir).expect("read src").flatten().collect();
        entries.sort_by_key(|entry| entry.path());
        for entry in entries {
            let path = entry.path();
            if path.is_dir() {
                scan(root, &path, files);
            } else if path.extension().is_some_and(|extension| extension == "rs") {
                let relative = path.strip_prefix(root).expect("under the root");
                let relative = relative.to_string_lossy().replace('\\', "/");
                let text = std::fs::read_to_string(&path).expect("read a source file");
                files.push((relative, text));
            }
        }
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    scan(root, &root.join("src"), &mut files);
    files
}

#[test]
fn every_module_imports_only_the_floors_below_it() {
    let violations = floor_violations(&arrows(&crate_sources()), FLOORS);
    assert!(
        violations.is_empty(),
        "{} arrows point up the floors (a module may import only the modules after it in \
         FLOORS, tests/architecture.rs):\n{}",
        violations.len(),
        violations.join("\n")
    );
}

#[test]
fn no_files_import_each_other_in_a_circle() {
    let circles = circles(&arrows(&crate_sources()));
    let listed: Vec<String> = circles
        .iter()
        .enumerate()
        .map(|(index, arrows)| format!("circle {}:\n  {}", index + 1, arrows.join("\n  ")))
        .collect();
    assert!(
        circles.is_empty(),
        "{} import circles among files (move the shared item so the arrows run one way):\n{}",
        circles.len(),
        listed.join("\n")
    );
}

/// The checker reads the crate at all: a broken tokenizer finding nothing would pass both
/// checks above.
#[test]
fn the_crate_has_the_arrows_it_is_known_to_have() {
    let arrows = arrows(&crate_sources());
    let has = |from: &str, to: &str, name: &str| {
        arrows
            .iter()
            .any(|arrow| arrow.from == from && arrow.to == to && arrow.names.contains(name))
    };
    assert!(has("src/app.rs", "src/config.rs", "ServeConfig"), "a plain use");
    assert!(
        has("src/store/history.rs", "src/rules/mod.rs", "CareerView"),
        "a grouped use"
    );
    assert!(
        has("src/rules/ctg/state.rs", "src/rules/ctg/event.rs", "Event"),
        "a super:: use"
    );
    assert!(
        has("src/main.rs", "src/cli/mod.rs", "run"),
        "the binary's crease:: path"
    );
    assert!(arrows.len() > 300, "only {} arrows", arrows.len());
}

fn synthetic(files: &[(&str, &str)]) -> Vec<(String, String)> {
    files
        .iter()
        .map(|(path, text)| (path.to_string(), text.to_string()))
        .collect()
}

#[test]
fn the_checker_catches_a_circle_and_lets_a_facade_be() {
    let files = synthetic(&[
        ("src/lib.rs", "pub mod game;"),
        (
            "src/game/mod.rs",
            "pub mod flow;\npub mod rounds;\npub use self::flow::{decide, Pending};\npub struct Game;",
        ),
        (
            "src/game/flow.rs",
            "use super::Game;\nuse super::rounds::{start_round, next_over};\npub fn decide() {}",
        ),
        (
            "src/game/rounds.rs",
            "// use super::flow::commented_out;\nlet text = \"crate::game::flow::in_a_string\";\n\
             pub fn start_round() { crate::game::flow::end_match(); }",
        ),
    ]);
    assert_eq!(
        circles(&arrows(&files)),
        vec![vec![
            "src/game/flow.rs -> src/game/rounds.rs : next_over, start_round".to_string(),
            "src/game/rounds.rs -> src/game/flow.rs : end_match".to_string(),
        ]],
        "the parent's `pub use self::flow::...` and its children's `super::Game` make no circle"
    );
    let straightened = synthetic(&[
        (
            "src/game/mod.rs",
            "pub mod flow;\npub mod rounds;\npub use self::flow::decide;",
        ),
        ("src/game/flow.rs", "use super::rounds::{self, start_round};"),
        ("src/game/rounds.rs", "pub fn start_round() {}"),
    ]);
    assert_eq!(circles(&arrows(&straightened)), Vec::<Vec<String>>::new());
}

#[test]
fn the_checker_catches_a_back_arrow() {
    let files = synthetic(&[
        (
            "src/high.rs",
            "use crate::low::Thing;\npub fn f() { crate::low::g(); }",
        ),
        (
            "src/low/mod.rs",
            "mod inner;\npub struct Thing;\n#[cfg(test)]\nmod tests {\n    use super::*;\n    \
             use crate::{high::{self, f as call}, low::inner::Helper};\n}",
        ),
        ("src/low/inner.rs", "pub struct Helper;"),
        ("src/unlisted.rs", "use crate::high::f;"),
    ]);
    assert_eq!(
        floor_violations(&arrows(&files), &["high", "low"]),
        vec![
            "src/low/mod.rs -> src/high.rs : f, high".to_string(),
            "src/unlisted.rs -> src/high.rs : f (a module missing from FLOORS)".to_string(),
        ]
    );
}
