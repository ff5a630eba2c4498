//! End-to-end tests of the pictures: `hexwar render`, `hexwar replay --html`, and the plots of
//! `batch` and `tune`.

use std::path::{Path, PathBuf};
use std::process::Output;

use crate::common;

use common::hexwar;

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn folder(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("pictures")
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn ok(args: &[&str]) -> Output {
    let out = hexwar(args);
    assert!(out.status.success(), "{args:?}: {}", text(&out.stderr));
    out
}

/// The part of a picture between two markers.
fn between<'a>(svg: &'a str, a: &str, b: &str) -> &'a str {
    let start = svg.find(a).unwrap_or_else(|| panic!("no {a}"));
    let end = svg[start..].find(b).unwrap_or_else(|| panic!("no {b}")) + start;
    &svg[start..end]
}

/// A PNG's width and height, from its header.
fn png_size(bytes: &[u8]) -> (u32, u32) {
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n", "a PNG");
    let n = |i: usize| u32::from_be_bytes(bytes[i..i + 4].try_into().unwrap());
    (n(16), n(20))
}

/// The README's command: the dawn assault's map as PNG, and as SVG with a label per hex.
#[test]
fn render_draws_a_scenario_as_png_and_svg() {
    let dir = folder("render");
    let png = dir.join("dawn.png");
    ok(&[
        "render",
        "scenarios/dawn_assault.toml",
        "-o",
        png.to_str().unwrap(),
    ]);
    let (w, h) = png_size(&std::fs::read(&png).unwrap());
    assert!(w > 1500 && h > 1200, "{w} x {h}: two pixels a unit");
    let svg = dir.join("dawn.svg");
    ok(&[
        "render",
        "scenarios/dawn_assault.toml",
        "-o",
        svg.to_str().unwrap(),
    ]);
    let svg = std::fs::read_to_string(svg).unwrap();
    // 16 x 14 hexes, each labelled; the legend names every terrain of the table.
    assert_eq!(
        between(&svg, "<g class=\"labels\"", "</g>")
            .matches("<text")
            .count(),
        16 * 14
    );
    for t in [
        "clear",
        "forest",
        "city",
        "water",
        "objective",
        "smoke (R14.3)",
    ] {
        assert!(svg.contains(&format!(">{t}</text>")), "legend: {t}");
    }
    assert!(svg.contains("start of the battle, dawn"));
}

/// `--after T --seed S` draws the game `run --seed S` plays, after turn T; `--save SAVE --turn
/// T` draws a saved game at the same point: the same game, the same counters.
#[test]
fn render_draws_a_game_after_a_turn_or_a_saved_game() {
    let dir = folder("after");
    let start = dir.join("start.svg");
    let after = dir.join("after.svg");
    let file = "scenarios/meeting_engagement.toml";
    ok(&["render", file, "-o", start.to_str().unwrap()]);
    ok(&[
        "render",
        file,
        "--after",
        "3",
        "--seed",
        "4",
        "-o",
        after.to_str().unwrap(),
    ]);
    let save = dir.join("game.toml");
    ok(&["run", file, "--seed", "4", "--save", save.to_str().unwrap()]);
    let saved = dir.join("saved.svg");
    ok(&[
        "render",
        "--save",
        save.to_str().unwrap(),
        "--turn",
        "3",
        "-o",
        saved.to_str().unwrap(),
    ]);
    let counters = |p: &Path| {
        let svg = std::fs::read_to_string(p).unwrap();
        between(
            &svg,
            "<g class=\"counters\">",
            "<g class=\"objective-names\"",
        )
        .to_owned()
    };
    assert_ne!(
        counters(&start),
        counters(&after),
        "the units moved in three turns"
    );
    assert_eq!(
        counters(&after),
        counters(&saved),
        "the same game at the same turn"
    );
    let caption = std::fs::read_to_string(&after).unwrap();
    assert!(caption.contains("after turn 3"), "the legend says when");
}

#[test]
fn render_refuses_bad_input_with_exit_2() {
    let dir = folder("bad");
    let out_svg = dir.join("x.svg");
    let out = out_svg.to_str().unwrap();
    for (args, says) in [
        (
            vec!["render", "scenarios/dawn_assault.toml", "-o", "map.jpg"],
            "NAME.svg or NAME.png",
        ),
        (
            vec![
                "render",
                "scenarios/dawn_assault.toml",
                "--after",
                "0",
                "-o",
                out,
            ],
            "--after must be at least 1",
        ),
        (
            vec![
                "render",
                "scenarios/dawn_assault.toml",
                "--scale",
                "0",
                "-o",
                "x.png",
            ],
            "--scale",
        ),
        (vec!["render", "no/such.toml", "-o", out], "no/such.toml"),
        (
            vec!["render", "--save", "scenarios/dawn_assault.toml", "-o", out],
            "not a saved game",
        ),
    ] {
        let o = hexwar(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", text(&o.stderr));
        assert!(
            text(&o.stderr).contains(says),
            "{args:?}: {}",
            text(&o.stderr)
        );
        assert!(!out_svg.exists(), "nothing written for {args:?}");
    }
}

/// The biggest map a scenario may have, with 100 units: every hex labelled in the SVG; the PNG
/// stays within its pixel budget and says that its labels were too small to draw.
#[test]
fn the_biggest_map_renders() {
    let dir = folder("big");
    let svg = dir.join("big.svg");
    ok(&[
        "render",
        "tests/data/ninety_nine.toml",
        "-o",
        svg.to_str().unwrap(),
    ]);
    let svg = std::fs::read_to_string(svg).unwrap();
    assert_eq!(
        between(&svg, "<g class=\"labels\"", "</g>")
            .matches("<text")
            .count(),
        99 * 99
    );
    assert_eq!(
        between(
            &svg,
            "<g class=\"counters\">",
            "<g class=\"objective-names\""
        )
        .matches("<g transform=")
        .count(),
        100
    );
    let png = dir.join("big.png");
    ok(&[
        "render",
        "tests/data/ninety_nine.toml",
        "-o",
        png.to_str().unwrap(),
    ]);
    let (w, h) = png_size(&std::fs::read(&png).unwrap());
    assert!(u64::from(w) * u64::from(h) <= 12_000_000, "{w} x {h}");
    assert!(w > 3000, "{w}");
}

/// `replay --html` writes one self-contained page, from a seed or from a saved game.
#[test]
fn replay_writes_a_page_from_a_seed_or_a_save() {
    let dir = folder("replay");
    let page = dir.join("night.html");
    let out = ok(&[
        "replay",
        "--seed",
        "1",
        "scenarios/night_recon.toml",
        "--html",
        page.to_str().unwrap(),
    ]);
    assert!(text(&out.stderr).contains("KB"), "{}", text(&out.stderr));
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.starts_with("<!DOCTYPE html>"));
    assert!(html.contains("Night recon screen on the Fulda road"));
    assert!(html.contains(r#"<script id="data" type="application/json">"#));

    let save = dir.join("game.toml");
    ok(&[
        "run",
        "scenarios/night_recon.toml",
        "--seed",
        "1",
        "--save",
        save.to_str().unwrap(),
    ]);
    let from_save = dir.join("saved.html");
    ok(&[
        "replay",
        save.to_str().unwrap(),
        "--html",
        from_save.to_str().unwrap(),
    ]);
    let saved = std::fs::read_to_string(&from_save).unwrap();
    // The same game: the same steps; only the header says where it came from.
    let steps = |h: &str| between(h, r#""steps":"#, "</script>").to_owned();
    assert_eq!(steps(&html), steps(&saved));
    assert!(saved.contains("saved game"));

    // A scenario without --seed is not a save; --seed without --html is refused by the parser.
    let o = hexwar(&[
        "replay",
        "scenarios/night_recon.toml",
        "--html",
        page.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains("give --seed"),
        "{}",
        text(&o.stderr)
    );
    let o = hexwar(&["replay", "--seed", "1", "scenarios/night_recon.toml"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn batch_and_tune_draw_plots() {
    let dir = folder("plots");
    let batch = dir.join("batch.svg");
    ok(&[
        "batch",
        "scenarios/dawn_assault.toml",
        "--runs",
        "60",
        "-q",
        "--plot",
        batch.to_str().unwrap(),
    ]);
    let svg = std::fs::read_to_string(&batch).unwrap();
    for title in [
        "Who wins",
        "How long the games last",
        "Units lost per game, by type",
        "When the attacker first held each objective",
        "Mill ruins",
    ] {
        assert!(svg.contains(title), "batch plot: {title}");
    }
    let tune = dir.join("tune.png");
    ok(&[
        "tune",
        "scenarios/dawn_assault.toml",
        "--vary",
        "t72.assault=2..4",
        "--runs",
        "30",
        "--plot",
        tune.to_str().unwrap(),
    ]);
    png_size(&std::fs::read(&tune).unwrap());
    // A plot that cannot be written is refused before any game is played.
    let o = hexwar(&[
        "batch",
        "scenarios/dawn_assault.toml",
        "--runs",
        "60",
        "--plot",
        "x.txt",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stdout).is_empty());
}
