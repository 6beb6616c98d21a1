//! `proto/` is generated from the Rust wire types: this test fails when it is stale.
//! Regenerate with `UPDATE_PROTO=1 cargo test --test rules proto_schema::`.

use crease::matches::GameRegistry;
use std::path::Path;

/// Every file of `proto/` for the games this build ships.
fn proto_files() -> Vec<(String, String)> {
    let games = GameRegistry::standard();
    crease::protocol::schema::files(
        games
            .ids()
            .into_iter()
            .filter_map(|id| games.get(id))
            .map(|game| (game.id(), game.schemas())),
    )
}

#[test]
fn proto_json_schemas_match_the_rust_types() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("proto");
    let update = std::env::var("UPDATE_PROTO").is_ok_and(|value| value == "1");
    let mut stale = Vec::new();
    for (path, text) in proto_files() {
        let file = root.join(&path);
        if update {
            std::fs::create_dir_all(file.parent().expect("a parent")).expect("create proto dir");
            std::fs::write(&file, &text).expect("write schema");
        } else if std::fs::read_to_string(&file).ok().as_deref() != Some(text.as_str()) {
            stale.push(path);
        }
    }
    assert!(
        stale.is_empty(),
        "proto/ is stale for {stale:?}: run UPDATE_PROTO=1 cargo test --test rules proto_schema::"
    );
}

#[test]
fn every_schema_names_its_type_and_the_protocol_is_versioned() {
    let files = proto_files();
    assert!(files.iter().any(|(path, _)| path == "ctg/command.json"));
    for (path, text) in files {
        let schema: serde_json::Value = serde_json::from_str(&text).expect("valid JSON");
        assert!(schema["title"].is_string(), "{path} has no title");
    }
    assert_eq!(crease::protocol::PROTOCOL_VERSION, 2);
}

/// Schema descriptions are read by client developers who never see the Rust code: a
/// rustdoc link (`` [`Type`] ``) there names something they cannot look up.
#[test]
fn schema_descriptions_carry_no_rust_doc_links() {
    let mut linked = Vec::new();
    for (path, text) in proto_files() {
        for (index, line) in text.lines().enumerate() {
            if line.contains("[`") && line.contains("`]") {
                linked.push(format!("{path}:{}: {}", index + 1, line.trim()));
            }
        }
    }
    assert!(linked.is_empty(), "rustdoc links in proto/: {linked:#?}");
}

/// The bitmask values the CTG view's schema documents are the ones the engine uses.
#[test]
fn the_documented_miss_option_bits_are_the_engines() {
    use crease::rules::ctg::types::MissOption;
    let view = descriptions("ctg/view.json");
    for option in MissOption::ALL {
        let name = serde_json::to_value(option).expect("a name");
        let documented = format!("{} = `{}`", option.bit(), name.as_str().expect("a string"));
        assert!(
            view.contains(&documented),
            "ctg/view.json does not say {documented}"
        );
    }
}

/// The CTG field's legality rules, as the schema states them, are the engine's numbers.
#[test]
fn the_documented_ctg_field_rules_are_the_engines() {
    use crease::rules::ctg::field::{FIELDERS, MAX_SLIPS, OUTFIELD_LIMIT, RESTRICTED_OUTFIELD_LIMIT};
    use crease::rules::ctg::types::Format;
    let view = descriptions("ctg/view.json");
    let mut documented = vec![
        format!("exactly {FIELDERS} fielders"),
        format!("at most {MAX_SLIPS} slips"),
        format!("({OUTFIELD_LIMIT} normally, {RESTRICTED_OUTFIELD_LIMIT} in the restricted"),
    ];
    for (name, format) in [("T10", Format::T10), ("T20", Format::T20)] {
        documented.push(format!("{name} areas 1-{}", format.areas()));
        if format.one_zone_of_three() {
            documented.push(format!("in {name} one zone may hold 3"));
        }
    }
    for text in documented {
        assert!(view.contains(&text), "ctg/view.json does not say {text:?}");
    }
}

/// Every `description` of one generated schema, with line breaks as spaces, as a reader sees
/// the prose.
fn descriptions(path: &str) -> String {
    fn collect(value: &serde_json::Value, into: &mut Vec<String>) {
        match value {
            serde_json::Value::Object(map) => {
                for (key, value) in map {
                    match (key.as_str(), value) {
                        ("description", serde_json::Value::String(text)) => {
                            into.push(text.split_whitespace().collect::<Vec<_>>().join(" "))
                        }
                        _ => collect(value, into),
                    }
                }
            }
            serde_json::Value::Array(items) => items.iter().for_each(|item| collect(item, into)),
            _ => {}
        }
    }
    let files = proto_files();
    let (_, text) = files
        .iter()
        .find(|(file, _)| file == path)
        .unwrap_or_else(|| panic!("no schema {path}"));
    let mut found = Vec::new();
    collect(&serde_json::from_str(text).expect("valid JSON"), &mut found);
    found.join("\n")
}

/// Every command and event named in proto/README.md's table of sealed decisions is a `type`
/// of that game's command or event schema.
#[test]
fn the_sealed_decisions_table_names_real_commands_and_events() {
    let readme = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("proto/README.md"))
        .expect("proto/README.md");
    let section = readme
        .split("## Hidden information and sealed decisions")
        .nth(1)
        .expect("the section exists");
    let files = proto_files();
    let schema = |path: String| {
        files
            .iter()
            .find(|(file, _)| *file == path)
            .map(|(_, text)| text.clone())
            .unwrap_or_else(|| panic!("no schema {path}"))
    };
    let mut rows = 0;
    for line in section
        .lines()
        .filter(|line| line.starts_with("| ") && !line.starts_with("| game"))
    {
        let cells: Vec<&str> = line.trim_matches('|').split('|').map(str::trim).collect();
        let game = cells[0];
        let (commands, events) = (
            schema(format!("{game}/command.json")),
            schema(format!("{game}/event.json")),
        );
        for (index, cell) in cells.iter().enumerate().skip(1) {
            // The first `code` of each cell is a type name (later ones are fields).
            let Some(name) = cell.split('`').nth(1) else {
                continue;
            };
            let constant = format!("\"const\": \"{name}\"");
            let known = if index == 1 { &commands } else { &events };
            assert!(
                known.contains(&constant),
                "{game}: `{name}` is not a type in its schema ({line})"
            );
        }
        rows += 1;
    }
    assert!(rows >= 6, "the table has its rows");
}

/// The name limit the docs state (the schema of `POST /v1/players` and proto/README.md) is
/// the one the server applies.
#[test]
fn the_documented_name_limit_is_the_servers() {
    let limit = format!(
        "1 to {} printable characters",
        crease::input::PlayerName::MAX_CHARS
    );
    assert!(
        descriptions("http/create_player.json").contains(&limit),
        "{limit}"
    );
    let readme = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("proto/README.md"))
        .expect("proto/README.md");
    assert!(
        readme
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
            .contains(&limit),
        "proto/README.md: {limit}"
    );
}

/// The generated sections of `proto/README.md` (error codes and their precedence) match the
/// code; `UPDATE_PROTO=1` rewrites them in place.
#[test]
fn the_readmes_generated_sections_match_the_code() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("proto/README.md");
    let mut readme = std::fs::read_to_string(&path).expect("proto/README.md");
    let update = std::env::var("UPDATE_PROTO").is_ok_and(|value| value == "1");
    for (name, generated) in crease::protocol::schema::readme_sections() {
        let (begin, end) = (
            format!("<!-- generated:{name} -->\n"),
            format!("<!-- end:{name} -->"),
        );
        let start = readme
            .find(&begin)
            .unwrap_or_else(|| panic!("no {begin:?} in proto/README.md"))
            + begin.len();
        let stop = start
            + readme[start..]
                .find(&end)
                .unwrap_or_else(|| panic!("no {end:?} after {begin:?}"));
        if update {
            readme.replace_range(start..stop, &generated);
        } else {
            assert_eq!(
                &readme[start..stop],
                generated,
                "proto/README.md's {name} section is stale: run UPDATE_PROTO=1 cargo test --test rules proto_schema::"
            );
        }
    }
    if update {
        std::fs::write(&path, readme).expect("write proto/README.md");
    }
}
