//! `proto/` is generated from the Rust wire types: this test fails when it is stale.
//! Regenerate with `UPDATE_PROTO=1 cargo test --test proto_schema`.

use crease::matches::GameRegistry;
use std::path::Path;

#[test]
fn proto_json_schemas_match_the_rust_types() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("proto");
    let update = std::env::var("UPDATE_PROTO").is_ok_and(|value| value == "1");
    let mut stale = Vec::new();
    for (path, text) in crease::protocol::schema::files(&GameRegistry::standard()) {
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
        "proto/ is stale for {stale:?}: run UPDATE_PROTO=1 cargo test --test proto_schema"
    );
}

#[test]
fn every_schema_names_its_type_and_the_protocol_is_versioned() {
    let files = crease::protocol::schema::files(&GameRegistry::standard());
    assert!(files.iter().any(|(path, _)| path == "ctg/command.json"));
    for (path, text) in files {
        let schema: serde_json::Value = serde_json::from_str(&text).expect("valid JSON");
        assert!(schema["title"].is_string(), "{path} has no title");
    }
    assert_eq!(crease::protocol::PROTOCOL_VERSION, 1);
}

/// Schema descriptions are read by client developers who never see the Rust code: a
/// rustdoc link (`` [`Type`] ``) there names something they cannot look up.
#[test]
fn schema_descriptions_carry_no_rust_doc_links() {
    let mut linked = Vec::new();
    for (path, text) in crease::protocol::schema::files(&GameRegistry::standard()) {
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
    let files = crease::protocol::schema::files(&GameRegistry::standard());
    let (_, view) = files
        .iter()
        .find(|(path, _)| path == "ctg/view.json")
        .expect("the CTG view schema");
    for option in MissOption::ALL {
        let name = serde_json::to_value(option).expect("a name");
        let documented = format!("{} = `{}`", option.bit(), name.as_str().expect("a string"));
        assert!(
            view.contains(&documented),
            "ctg/view.json does not say {documented}"
        );
    }
}
