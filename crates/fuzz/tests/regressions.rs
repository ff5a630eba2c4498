//! Every input the fuzzer ever saved (`crates/fuzz/regressions/TARGET/*`) passes its target's
//! properties now: a crash once found stays fixed.

#[test]
fn saved_inputs_pass() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("regressions");
    let mut checked = 0;
    for target in hexwar_fuzz::TARGETS {
        let Ok(entries) = std::fs::read_dir(root.join(target)) else {
            continue;
        };
        for e in entries.filter_map(Result::ok) {
            let text = std::fs::read_to_string(e.path()).unwrap_or_default();
            let r = std::panic::catch_unwind(|| hexwar_fuzz::check(target, &text));
            assert!(matches!(r, Ok(Ok(()))), "{}: {r:?}", e.path().display());
            checked += 1;
        }
    }
    // The seed inputs themselves (the bundled data) pass too.
    let data = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios/dawn_assault.toml"),
    )
    .unwrap();
    assert_eq!(hexwar_fuzz::check("scenario", &data), Ok(()));
    let _ = checked;
}
