//! Benchmarks of the pictures: the biggest map a scenario may have (99 x 99, 100 units) as SVG
//! and as PNG, and the replay page of a bundled game.
//!
//! Run with `cargo bench -p benches --bench render`.

use std::hint::black_box;

use counters::{Rules, State};
use criterion::{Criterion, criterion_group, criterion_main};
use model::{GameRng, ScenarioFile, bundled};
use present::picture::map::{self, Position};
use present::picture::replay::{self, Header};
use present::picture::{png, style::Style};

fn load(text: &str) -> model::Scenario {
    ScenarioFile::parse("bench.toml", text)
        .validate(&bundled::catalog(), &bundled::terrain())
        .expect("a valid scenario")
}

fn render(c: &mut Criterion) {
    let catalog = bundled::catalog();
    let style = Style::bundled();
    let big = load(include_str!("../../../tests/data/ninety_nine.toml"));
    let rules = Rules::new(&big, &catalog);
    let state = State::new(&big);
    let position = || Position {
        units: state.units(),
        smoke: state.smoke(),
        caption: "start".to_owned(),
    };
    let mut group = c.benchmark_group("render");
    group.sample_size(10);
    group.bench_function("ninety_nine_svg", |b| {
        b.iter(|| map::svg(black_box(&rules), &style, &position(), map::Labels::Drawn));
    });
    group.bench_function("ninety_nine_png", |b| {
        b.iter(|| {
            png::png(
                &map::svg(
                    black_box(&rules),
                    &style,
                    &position(),
                    map::Labels::TooSmall,
                ),
                2.0,
                png::DEFAULT_PIXELS,
            )
            .unwrap()
        });
    });
    let night = load(include_str!("../../../scenarios/night_recon.toml"));
    let night_rules = Rules::new(&night, &catalog);
    let played = ai::Players::of(&night)
        .unwrap()
        .play(
            night_rules,
            GameRng::seed_from_u64(1),
            GameRng::seed_from_u64(0),
        )
        .unwrap();
    let (end, events) = (played.state(), played.events());
    let header = Header {
        source: "seed 1".to_owned(),
        scripts: replay::Scripts::Inline,
    };
    group.bench_function("replay_page_night_recon", |b| {
        b.iter(|| {
            replay::page(
                black_box(&night_rules),
                &style,
                &header,
                events,
                end.outcome(),
            )
        });
    });
    group.finish();
}

criterion_group!(benches, render);
criterion_main!(benches);
