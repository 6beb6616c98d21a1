//! A seeded, deterministic mutator of client frames for the protocol fuzz drill.
//!
//! It starts from valid frames (commands a game's bot chose from a real view, pings) and
//! breaks them the ways a hostile or broken client would: at the byte level (bit flips,
//! truncation, splices), at the JSON level (wrong types, unknown and missing fields,
//! duplicate keys, huge numbers, deep nesting, hostile unicode, huge ids) and at the frame
//! level (empty, binary). The same seed always yields the same frames, so a failure is
//! replayed by its seed alone.

use crease::rules::{BotPolicy, Dice, Game, MatchCore, Seed, Viewer};
use serde_json::{Map, Value, json};

/// Frames stay under the server's 64 KiB limit: over-size frames end the connection by
/// design (a close code, not an `error` reply), which the fuzz loop does not exercise.
pub const MAX_FUZZ_BYTES: usize = 60 * 1024;

/// One frame to send.
#[derive(Clone, Debug)]
pub enum Fuzzed {
    Text(String),
    Binary(Vec<u8>),
}

impl Fuzzed {
    /// A short printable form for failure messages.
    pub fn describe(&self) -> String {
        match self {
            Fuzzed::Text(text) => {
                let head: String = text.chars().take(300).collect();
                format!("text ({} bytes): {head:?}", text.len())
            }
            Fuzzed::Binary(bytes) => format!("binary ({} bytes)", bytes.len()),
        }
    }
}

/// The mutator's random stream: the same ChaCha20 the games use, seeded from a `u64`.
pub struct Mutator {
    dice: Dice,
}

/// Strings that break naive handling: control characters, NUL, bidi overrides, combining
/// marks, astral-plane characters, escapes of lone surrogates, and SQL/format-looking text.
const HOSTILE_STRINGS: &[&str] = &[
    "",
    "\u{0}",
    "a\u{0}b",
    "\u{1}\u{7}\u{1b}[31m",
    "\u{202e}reversed",
    "e\u{301}\u{301}\u{301}",
    "🏏🦆💥",
    "\u{feff}",
    "\u{fffd}",
    "'; DROP TABLE match_event; --",
    "%s%n%x{}{0}",
    "\\u0000",
    "bat",
    "bowl",
    "pace",
    "spin",
];

/// Numbers at and past every integer width the games use, plus fractions and signs.
const HUGE_NUMBERS: &[&str] = &[
    "0",
    "-1",
    "255",
    "256",
    "65536",
    "4294967295",
    "4294967296",
    "9007199254740993",
    "18446744073709551615",
    "18446744073709551616",
    "-9223372036854775808",
    "1e308",
    "-1e308",
    "1.5",
    "-0.0",
    "1e-400",
    "123456789012345678901234567890",
];

impl Mutator {
    pub fn new(seed: u64) -> Mutator {
        Mutator {
            dice: Dice::new(&Seed::from_u64(seed)),
        }
    }

    pub fn below(&mut self, n: usize) -> usize {
        self.dice.below(n.max(1) as u32) as usize
    }

    fn chance(&mut self, percent: u32) -> bool {
        self.dice.chance(percent, 100)
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }

    fn byte(&mut self) -> u8 {
        self.below(256) as u8
    }

    /// One mutation of `base` (a valid frame as JSON); sometimes two stacked.
    pub fn mutate(&mut self, base: &Value) -> Fuzzed {
        let first = self.one(base);
        let fuzzed = match first {
            Fuzzed::Text(text) if self.chance(15) => match serde_json::from_str::<Value>(&text) {
                Ok(value) => self.one(&value),
                Err(_) => Fuzzed::Text(text),
            },
            other => other,
        };
        match fuzzed {
            Fuzzed::Text(text) if text.len() > MAX_FUZZ_BYTES => {
                let mut end = MAX_FUZZ_BYTES;
                while !text.is_char_boundary(end) {
                    end -= 1;
                }
                Fuzzed::Text(text[..end].to_string())
            }
            Fuzzed::Binary(mut bytes) => {
                bytes.truncate(MAX_FUZZ_BYTES);
                Fuzzed::Binary(bytes)
            }
            other => other,
        }
    }

    fn one(&mut self, base: &Value) -> Fuzzed {
        let text = base.to_string();
        match self.below(16) {
            // Byte level.
            0 => Fuzzed::Text(self.flip_bits(&text)),
            1 => Fuzzed::Text(self.truncate(&text)),
            2 => Fuzzed::Text(self.splice(&text)),
            // JSON level.
            3 => Fuzzed::Text(self.edit_value(base, Edit::WrongType).to_string()),
            4 => Fuzzed::Text(self.edit_value(base, Edit::UnknownField).to_string()),
            5 => Fuzzed::Text(self.edit_value(base, Edit::Remove).to_string()),
            6 => Fuzzed::Text(self.huge_number(base)),
            7 => Fuzzed::Text(self.edit_value(base, Edit::Unicode).to_string()),
            8 => Fuzzed::Text(self.deep_nesting(base)),
            9 => Fuzzed::Text(self.huge_id(base)),
            10 => Fuzzed::Text(self.duplicate_key(&text)),
            11 => Fuzzed::Text(self.retype(base).to_string()),
            // Frame level.
            12 => Fuzzed::Text(self.empty_ish().to_string()),
            13 => Fuzzed::Binary(self.binary(&text)),
            14 => Fuzzed::Text(self.edit_value(base, Edit::WrongType).to_string()),
            _ => Fuzzed::Text(self.flip_bits(&text)),
        }
    }

    /// 1-8 flipped bits; the bytes go back to text lossily (U+FFFD for broken sequences),
    /// as a text frame must be UTF-8 (invalid UTF-8 is a transport error, closed with 1007).
    fn flip_bits(&mut self, text: &str) -> String {
        let mut bytes = text.as_bytes().to_vec();
        if bytes.is_empty() {
            return String::new();
        }
        for _ in 0..1 + self.below(8) {
            let at = self.below(bytes.len());
            bytes[at] ^= 1 << self.below(8);
        }
        String::from_utf8_lossy(&bytes).into_owned()
    }

    fn truncate(&mut self, text: &str) -> String {
        let mut end = self.below(text.len());
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        text[..end].to_string()
    }

    /// A random slice of the frame repeated or inserted elsewhere.
    fn splice(&mut self, text: &str) -> String {
        let chars: Vec<char> = text.chars().collect();
        let start = self.below(chars.len());
        let end = start + self.below(chars.len() - start + 1);
        let piece: String = chars[start..end].iter().collect();
        let at = self.below(chars.len() + 1);
        let mut out: String = chars[..at].iter().collect();
        for _ in 0..1 + self.below(4) {
            out.push_str(&piece);
        }
        out.extend(&chars[at..]);
        out
    }

    fn random_value(&mut self, depth: usize) -> Value {
        match self.below(if depth > 2 { 6 } else { 8 }) {
            0 => Value::Null,
            1 => Value::Bool(self.chance(50)),
            2 => json!(self.pick(HUGE_NUMBERS).parse::<f64>().unwrap_or(0.0)),
            3 => json!(self.below(300) as i64 - 20),
            4 => Value::String(self.pick(HOSTILE_STRINGS).to_string()),
            5 => Value::String(self.random_unicode(40)),
            6 => Value::Array((0..self.below(5)).map(|_| self.random_value(depth + 1)).collect()),
            _ => {
                let mut map = Map::new();
                for _ in 0..self.below(4) {
                    let key = self
                        .pick(&["type", "id", "command", "x", "\u{0}", ""])
                        .to_string();
                    map.insert(key, self.random_value(depth + 1));
                }
                Value::Object(map)
            }
        }
    }

    /// 1 to `max` characters from every plane, control characters included.
    fn random_unicode(&mut self, max: usize) -> String {
        let len = 1 + self.below(max);
        (0..len)
            .map(|_| {
                let range = *self.pick(&[
                    (0u32, 0x20u32),
                    (0x20, 0x7f),
                    (0x80, 0x800),
                    (0x800, 0xd800),
                    (0xe000, 0x11_0000),
                ]);
                let code = range.0 + self.below((range.1 - range.0) as usize) as u32;
                char::from_u32(code).unwrap_or('\u{fffd}')
            })
            .collect()
    }

    /// Applies `edit` at a random node of `base` (the root included).
    fn edit_value(&mut self, base: &Value, edit: Edit) -> Value {
        let mut value = base.clone();
        let mut paths = Vec::new();
        collect_paths(&value, &mut Vec::new(), &mut paths);
        let path = self.pick(&paths).clone();
        let replacement = match edit {
            Edit::WrongType => Some(self.random_value(0)),
            Edit::Unicode => Some(Value::String(if self.chance(50) {
                self.pick(HOSTILE_STRINGS).to_string()
            } else {
                self.random_unicode(200)
            })),
            Edit::UnknownField | Edit::Remove => None,
        };
        let target = node_at(&mut value, &path);
        match (edit, replacement) {
            (_, Some(new)) => *target = new,
            (Edit::UnknownField, None) => {
                let key = format!(
                    "{}{}",
                    self.pick(&["extra", "typ", "Type", "id ", "\u{0}", "__proto__"]),
                    self.below(3)
                );
                let new = self.random_value(1);
                match target {
                    Value::Object(map) => {
                        map.insert(key, new);
                    }
                    other => *other = json!({ key: new }),
                }
            }
            (_, None) => match target {
                Value::Object(map) if !map.is_empty() => {
                    let keys: Vec<String> = map.keys().cloned().collect();
                    let key = self.pick(&keys).clone();
                    map.remove(&key);
                }
                Value::Array(items) if !items.is_empty() => {
                    let at = self.below(items.len());
                    items.remove(at);
                }
                other => *other = Value::Null,
            },
        }
        value
    }

    /// A numeric leaf (or any leaf) replaced by a number past the types' ranges, written
    /// as raw text so it keeps digits JSON doubles would lose.
    fn huge_number(&mut self, base: &Value) -> String {
        let marker = "\"__HUGE__\"";
        let mut value = base.clone();
        let mut paths = Vec::new();
        collect_paths(&value, &mut Vec::new(), &mut paths);
        let numeric: Vec<Vec<Step>> = paths
            .iter()
            .filter(|path| node_at(&mut value, path).is_number())
            .cloned()
            .collect();
        let path = if numeric.is_empty() {
            self.pick(&paths).clone()
        } else {
            self.pick(&numeric).clone()
        };
        *node_at(&mut value, &path) = Value::String("__HUGE__".into());
        let huge = *self.pick(HUGE_NUMBERS);
        value.to_string().replacen(marker, huge, 1)
    }

    /// The frame (or its command) inside thousands of arrays or objects.
    fn deep_nesting(&mut self, base: &Value) -> String {
        let depth = 1 + self.below(10_000);
        let (open, close) = if self.chance(50) {
            ("[", "]")
        } else {
            ("{\"a\":", "}")
        };
        let inner = if self.chance(50) {
            base["command"].to_string()
        } else {
            "1".to_string()
        };
        let nested = format!("{}{inner}{}", open.repeat(depth), close.repeat(depth));
        if self.chance(50) {
            nested
        } else {
            let id = base["id"].as_str().unwrap_or("n").to_string();
            format!(
                "{{\"type\":\"command\",\"id\":{},\"command\":{nested}}}",
                json!(id)
            )
        }
    }

    fn huge_id(&mut self, base: &Value) -> String {
        let mut value = base.clone();
        let id = match self.below(4) {
            0 => Value::String("x".repeat(1 + self.below(50_000))),
            1 => Value::String(self.random_unicode(5_000)),
            2 => json!(u64::MAX),
            _ => json!([base["id"].clone()]),
        };
        if let Value::Object(map) = &mut value {
            map.insert("id".into(), id);
        }
        value.to_string()
    }

    fn duplicate_key(&mut self, text: &str) -> String {
        let key = self.pick(&["type", "id", "command"]);
        let value = self.random_value(1);
        match text.strip_prefix('{') {
            Some(rest) => format!("{{\"{key}\":{value},{rest}"),
            None => text.to_string(),
        }
    }

    /// The `type` tag replaced: another message type, an unknown one, wrong case.
    fn retype(&mut self, base: &Value) -> Value {
        let mut value = base.clone();
        let tag = self.pick(&[
            "ping",
            "command",
            "Command",
            "PING",
            "ack",
            "snapshot",
            "error",
            "",
            "command\u{0}",
        ]);
        if !value.is_object() {
            value = json!({ "type": tag, "command": value });
        } else if self.chance(50) {
            value["type"] = Value::String(tag.to_string());
        } else if let Some(command) = value.get_mut("command").filter(|command| command.is_object()) {
            command["type"] = Value::String(format!("{tag}{}", self.pick(&["", "_", "s"])));
        }
        value
    }

    /// Frames with next to nothing in them.
    fn empty_ish(&mut self) -> &'static str {
        const EMPTY_ISH: &[&str] = &[
            "",
            " ",
            "\n",
            "null",
            "0",
            "true",
            "[]",
            "{}",
            "\"\"",
            "{\"type\":null}",
            "\u{0}",
            "\u{feff}{}",
        ];
        EMPTY_ISH[self.below(EMPTY_ISH.len())]
    }

    fn binary(&mut self, text: &str) -> Vec<u8> {
        if self.chance(50) {
            text.as_bytes().to_vec()
        } else {
            (0..self.below(2_000)).map(|_| self.byte()).collect()
        }
    }
}

#[derive(Clone, Copy)]
enum Edit {
    WrongType,
    UnknownField,
    Remove,
    Unicode,
}

#[derive(Clone, Debug)]
enum Step {
    Key(String),
    Index(usize),
}

fn collect_paths(value: &Value, path: &mut Vec<Step>, out: &mut Vec<Vec<Step>>) {
    out.push(path.clone());
    match value {
        Value::Object(map) => {
            for (key, child) in map {
                path.push(Step::Key(key.clone()));
                collect_paths(child, path, out);
                path.pop();
            }
        }
        Value::Array(items) => {
            for (index, child) in items.iter().enumerate() {
                path.push(Step::Index(index));
                collect_paths(child, path, out);
                path.pop();
            }
        }
        _ => {}
    }
}

fn node_at<'a>(value: &'a mut Value, path: &[Step]) -> &'a mut Value {
    path.iter().fold(value, |node, step| match step {
        Step::Key(key) => &mut node[key.as_str()],
        Step::Index(index) => &mut node[*index],
    })
}

/// Valid commands of game `G`, harvested from an in-memory bot-vs-bot match with a fixed
/// seed: every kind of command the game has, each legal where it was played, and the same
/// list every run (so the fuzzed frames depend on the fuzz seed alone, not on a live match).
pub fn harvest<G: Game>(options: Value, seed: u64) -> Vec<Value> {
    let options: G::Options = serde_json::from_value(options).expect("the game's options");
    let mut core = MatchCore::<G>::new(&options, &Seed::from_u64(seed)).expect("a match");
    core.start();
    let mut dice = Dice::new(&Seed::from_u64(seed.wrapping_add(1)));
    let mut commands: Vec<Value> = Vec::new();
    // Bounded: a T10 match of CTG is a few hundred commands.
    for _ in 0..20_000 {
        if G::outcome(&core.state).is_some() {
            break;
        }
        let Some(&seat) = G::pending(&core.state).first() else {
            break;
        };
        let view = G::view(&core.state, Viewer::Seat(seat));
        let Some(command) = G::bot_command(&view, BotPolicy::Random, &mut dice) else {
            break;
        };
        core.submit(seat, &command).expect("the bot plays legal moves");
        let command = serde_json::to_value(&command).expect("a command encodes");
        if !commands.contains(&command) {
            commands.push(command);
        }
    }
    commands
}
