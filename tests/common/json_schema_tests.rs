//! The cases of the JSON Schema validator the tests share (`json_schema.rs`).

use super::json_schema::validate;
use serde_json::json;

#[test]
fn the_validator_finds_each_kind_of_failure() {
    let schema = json!({
        "$defs": {
            "Label": { "type": "string", "pattern": "^[0-9]{4}$" },
            "Count": { "type": "integer", "minimum": 0, "maximum": 255 }
        },
        "oneOf": [
            {
                "type": "object",
                "properties": {
                    "kind": { "const": "move" },
                    "hex": { "$ref": "#/$defs/Label" },
                    "path": { "type": "array", "items": { "$ref": "#/$defs/Label" },
                              "minItems": 1, "maxItems": 3 },
                    "cost": { "$ref": "#/$defs/Count" },
                    "note": { "type": ["string", "null"] }
                },
                "required": ["kind", "hex"],
                "additionalProperties": false
            },
            {
                "type": "object",
                "properties": {
                    "kind": { "enum": ["fire", "mission"] },
                    "pair": { "type": "array", "prefixItems": [{ "type": "string" },
                              { "type": "integer" }], "items": false }
                },
                "required": ["kind"]
            }
        ]
    });
    let ok = |v: serde_json::Value| validate(&schema, &v);
    assert_eq!(ok(json!({"kind": "move", "hex": "0102"})), Ok(()));
    assert_eq!(
        ok(json!({"kind": "move", "hex": "0102", "path": ["0103"], "cost": 3, "note": null})),
        Ok(())
    );
    assert_eq!(ok(json!({"kind": "fire", "pair": ["a", 1]})), Ok(()));
    assert_eq!(ok(json!({"kind": "mission", "extra": true})), Ok(()));
    for (bad, why) in [
        (json!({"kind": "move", "hex": "102"}), "does not match"),
        (json!({"kind": "move", "hex": "01023"}), "does not match"),
        (
            json!({"kind": "move", "hex": "0102", "cost": 256}),
            "maximum",
        ),
        (
            json!({"kind": "move", "hex": "0102", "cost": -1}),
            "minimum",
        ),
        (
            json!({"kind": "move", "hex": "0102", "cost": 1.5}),
            "not of type integer",
        ),
        (
            json!({"kind": "move", "hex": "0102", "path": []}),
            "minItems",
        ),
        (
            json!({"kind": "move", "hex": "0102", "extra": 1}),
            "not in the schema",
        ),
        (json!({"kind": "move"}), "'hex' is missing"),
        (
            json!({"kind": "move", "hex": "0102", "note": 3}),
            "string or null",
        ),
        (json!({"kind": "retreat"}), "is not one of"),
        (
            json!({"kind": "fire", "pair": [1, 1]}),
            "not of type string",
        ),
        (
            json!({"kind": "fire", "pair": ["a", 1, 2]}),
            "no value is allowed",
        ),
        (json!("move"), "none of the 2 schemas"),
    ] {
        let err = ok(bad.clone()).expect_err(&bad.to_string());
        assert!(err.contains(why), "{bad}: {err}");
    }
    // Valid against both: `oneOf` wants exactly one.
    let both = json!({"oneOf": [{"type": "integer"}, {"minimum": 0}]});
    assert!(
        validate(&both, &json!(3))
            .unwrap_err()
            .contains("2 schemas of oneOf")
    );
    assert_eq!(validate(&both, &json!(-3)), Ok(()));
}

#[test]
fn an_unknown_keyword_or_pattern_fails_rather_than_passes() {
    let unknown = json!({"type": "string", "maxLength": 2});
    assert!(
        validate(&unknown, &json!("abc"))
            .unwrap_err()
            .contains("'maxLength'")
    );
    let group = json!({"pattern": "^(ab)+$"});
    assert!(
        validate(&group, &json!("abab"))
            .unwrap_err()
            .contains("not known")
    );
    let unanchored = json!({"pattern": "b+c?"});
    assert_eq!(validate(&unanchored, &json!("abbd")), Ok(()));
    assert!(validate(&unanchored, &json!("acd")).is_err());
    let ranges = json!({"pattern": "^[a-c_]{2,}x*$"});
    assert_eq!(validate(&ranges, &json!("a_bxx")), Ok(()));
    assert!(validate(&ranges, &json!("a")).is_err());
    assert!(validate(&ranges, &json!("adx")).is_err());
}

#[test]
fn the_published_schema_tells_a_good_event_from_a_bad_one() {
    let schema = present::events_json::schema();
    let moved = json!({"event": "Moved", "unit": "brm_62", "path": ["0405", "0504"], "cost": 2,
                       "double": false, "gone_to_ground": false});
    assert_eq!(validate(&schema, &moved), Ok(()));
    for (field, bad) in [
        ("path", json!(["405", "0504"])),
        ("cost", json!(-2)),
        ("double", json!("no")),
        ("event", json!("Teleported")),
    ] {
        let mut v = moved.clone();
        v[field] = bad;
        assert!(validate(&schema, &v).is_err(), "{v} passed");
    }
    let mut missing = moved;
    missing.as_object_mut().map(|o| o.remove("unit"));
    assert!(validate(&schema, &missing).is_err(), "{missing} passed");
}
