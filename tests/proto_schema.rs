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
                "proto/README.md's {name} section is stale: run UPDATE_PROTO=1 cargo test --test proto_schema"
            );
        }
    }
    if update {
        std::fs::write(&path, readme).expect("write proto/README.md");
    }
}
