//! Issue 67's check: do the odds a person is shown agree with the game? Plays bundled
//! scenarios between their own AIs, takes the position before each assault they declared, and
//! sets the whole-melee odds of that position (`odds::melee_odds`, as the prompt and the page
//! show them, the sides' AIs choosing) against the engine's own frequencies over many plays of
//! the same assault from the same position (`execute_with` on fresh dice). Each unit's fate
//! (destroyed, captured, retreated, broke off, stayed) is compared by a chi-square test
//! (categories the odds expect fewer than 5 times pooled); a position fails when one of its
//! units' tests does, at an overall significance of 1e-3 (Bonferroni over every unit tested).
//! Sampled odds play this very engine, so they agree by construction and are counted apart.
//!
//! The test takes 200 positions (25 from each bundled scenario), 20,000 plays each, seed 1; the
//! example `cargo run --release -p ai --example odds_on_the_map -- [POSITIONS] [PLAYS] [SEED]`
//! prints the same report with what the odds cost.

use counters::dispatch::{ExecuteWith, execute_with};
use counters::{Rules, State};
use game::{Game, Seat};
use hexmap::{Hex, Label};
use model::{Command, Event, GameRng, Side, UnitId, bundled};

/// A position before an assault: the state, the attackers and the hex.
struct Position {
    scenario: usize,
    game: u64,
    turn: u32,
    state: State,
    attackers: Vec<UnitId>,
    hex: Hex,
}

const FATES: [&str; 5] = ["destroyed", "captured", "retreated", "broke off", "stayed"];

/// What [`measure`] found.
pub struct Report {
    /// The positions taken.
    pub positions: usize,
    /// Those whose odds are exact (the others are sampled).
    pub exact: usize,
    /// Units tested, over every position.
    pub tests: usize,
    /// Each exact position whose odds disagree with the engine: the unit, the odds and the
    /// engine's frequencies.
    pub failures: Vec<String>,
    /// Sampled positions with passengers, and without.
    pub sampled: [usize; 2],
    /// Exact positions where a defender had no hex to retreat to (R9.9).
    pub blocked_retreats: usize,
    /// Exact positions where the engine captured a unit in some play (R11.7, R11.10).
    pub captures: usize,
    /// What each position's odds cost (ms), and whether they were exact.
    pub took: Vec<(f64, bool)>,
    /// The plays of each position.
    pub plays: u32,
}

impl std::fmt::Display for Report {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for line in &self.failures {
            writeln!(f, "{line}")?;
        }
        writeln!(
            f,
            "{} of the {} positions with exact odds disagree with the engine ({} positions, the others' odds sampled from the engine itself; {} plays each, {} units tested, overall significance 1e-3)",
            self.failures.len(),
            self.exact,
            self.positions,
            self.plays,
            self.tests
        )?;
        writeln!(
            f,
            "among the exact: {} with a defender that has no hex to retreat to, {} where the engine captured a unit",
            self.blocked_retreats, self.captures
        )?;
        writeln!(
            f,
            "sampled ({} of them with passengers, {} without): too large (over 16 units with those that may join and the passengers, or past the chain's budget), or a break-off or fall back that bog checks, earlier break-offs or who joins may change",
            self.sampled[0], self.sampled[1]
        )?;
        for (what, exact) in [("exact", true), ("sampled", false)] {
            let mut ms: Vec<f64> = self
                .took
                .iter()
                .filter(|t| t.1 == exact)
                .map(|t| t.0)
                .collect();
            ms.sort_by(f64::total_cmp);
            if let (Some(max), false) = (ms.last(), ms.is_empty()) {
                writeln!(
                    f,
                    "{what} odds of {} positions: median {:.1} ms, 90th percentile {:.1} ms, longest {max:.1} ms",
                    ms.len(),
                    ms[ms.len() / 2],
                    ms[ms.len() * 9 / 10],
                )?;
            }
        }
        Ok(())
    }
}

/// Issue 67's done-when: for 200 positions from bundled games (the AIs' own assaults, fixed
/// seeds), the odds the prompt shows agree with the engine's frequencies over 20,000 plays
/// from that position, blocked retreats and captures among them; and most of them are exact.
#[test]
fn the_odds_of_positions_from_bundled_games_are_the_engines() {
    let report = measure(200, 20_000, 1, false);
    println!("{report}");
    assert!(report.failures.is_empty(), "{report}");
    assert!(
        report.exact * 4 >= report.positions * 3,
        "fewer than three in four positions have exact odds: {report}"
    );
    assert!(
        report.blocked_retreats > 0 && report.captures > 0,
        "no blocked retreat or capture among the exact positions: {report}"
    );
}

/// Takes `positions` positions from bundled games of `seed` and holds their odds to the
/// engine's `plays` plays of each; `show` prints the units around each that disagrees.
pub fn measure(positions: usize, plays: u32, seed: u64, show_them: bool) -> Report {
    let catalog = bundled::catalog();
    let scenarios: Vec<model::Scenario> = bundled::SCENARIOS
        .iter()
        .map(|(name, text)| bundled::scenario(name, text).expect("a bundled scenario"))
        .collect();
    let per = positions.div_ceil(scenarios.len());
    let mut found = Vec::new();
    for (k, scenario) in scenarios.iter().enumerate() {
        let rules = Rules::new(scenario, &catalog);
        let mut mine = Vec::new();
        let mut n = 0;
        while mine.len() < per && n < 10 * per as u64 {
            assaults(&rules, k, seed, n, &mut mine);
            n += 1;
        }
        mine.truncate(per);
        found.extend(mine);
    }
    found.truncate(positions);
    let tests: usize = found
        .iter()
        .map(|p| {
            // The units in the fight, and those next to it that may join (R11.4).
            let def = side_of(p).other();
            let nearby = rules_of(&scenarios[p.scenario], &catalog, |rules| {
                rules
                    .map()
                    .neighbors(p.hex)
                    .flat_map(|n| p.state.units_in(n, def))
                    .filter(|u| counters::melee::may_join(&p.state, rules, u.id))
                    .count()
            });
            p.attackers.len() + p.state.units_in(p.hex, def).count() + nearby
        })
        .sum();
    let alpha = 1e-3 / tests as f64;
    let mut failures = Vec::new();
    let (mut blocked_retreats, mut captures) = (0, 0);
    let mut exact = 0;
    // What each position's odds cost, as a person at the prompt waits for them.
    let mut took: Vec<(f64, bool)> = Vec::new();
    // The others, sampled: [with passengers, without].
    let mut why = [0usize; 2];
    for p in &found {
        let scenario = &scenarios[p.scenario];
        let rules = Rules::new(scenario, &catalog);
        let players = ai::Players::of(scenario).expect("the scenario's AIs");
        let advisors = players.advisors();
        let clock = std::time::Instant::now();
        let odds = odds::melee_odds(&p.state, &rules, &p.attackers, p.hex, &advisors);
        took.push((clock.elapsed().as_secs_f64() * 1e3, odds.exact));
        if !odds.exact {
            // Sampled odds play this very engine: they agree by construction.
            if p.attackers
                .iter()
                .copied()
                .chain(p.state.units_in(p.hex, side_of(p).other()).map(|u| u.id))
                .any(|u| p.state.passengers(u).next().is_some())
            {
                why[0] += 1;
            } else {
                why[1] += 1;
            }
            continue;
        }
        exact += 1;
        let counts = engine(&rules, p, &advisors, plays);
        let from: Vec<Hex> = p
            .attackers
            .iter()
            .filter_map(|&a| p.state.hex_of(a))
            .collect();
        if p.state.units_in(p.hex, side_of(p).other()).any(|d| {
            counters::assault::retreat_hex(&p.state, &rules, d.id, p.hex, &from, &p.attackers)
                .is_none()
        }) {
            blocked_retreats += 1;
        }
        if counts.iter().any(|(_, c)| c[1] > 0) {
            captures += 1;
        }
        let mut worst: Option<(String, f64)> = None;
        for fate in &odds.units {
            let u = fate.units[0];
            let expected = [
                fate.destroyed,
                fate.captured,
                fate.retreated,
                fate.broke_off,
                fate.stayed,
            ];
            // Alike units are one line of the odds, each unit's chance: their fates pooled.
            let mut observed = [0_u32; 5];
            for v in &fate.units {
                let c = counts
                    .iter()
                    .find(|(w, _)| w == v)
                    .map_or([0; 5], |(_, c)| *c);
                for i in 0..5 {
                    observed[i] += c[i];
                }
                // A unit next to the hex that never joined (R11.4) is in no play's fates:
                // it stayed where it was, as the odds count it.
                observed[4] += plays - c.iter().sum::<u32>();
            }
            let n = plays * u32::try_from(fate.units.len()).unwrap_or(1);
            let pv = chi_square_p(&expected, &observed, n);
            if pv < alpha && worst.as_ref().is_none_or(|w| pv < w.1) {
                let shown = (0..5)
                    .filter(|&i| expected[i] > 0.0 || observed[i] > 0)
                    .map(|i| {
                        format!(
                            "{} {:.1}% / {:.1}%",
                            FATES[i],
                            100.0 * expected[i],
                            100.0 * f64::from(observed[i]) / f64::from(n)
                        )
                    })
                    .collect::<Vec<_>>()
                    .join(", ");
                worst = Some((format!("{}: {shown}", scenario.unit_name(u)), pv));
            }
        }
        if let Some((what, pv)) = worst {
            if show_them {
                show(&rules, p, &odds);
            }
            let names: Vec<&str> = p.attackers.iter().map(|&a| scenario.unit_name(a)).collect();
            failures.push(format!(
                "{} game {} turn {}: {} on {}: {what} (odds / engine, p = {pv:.1e})",
                bundled::SCENARIOS[p.scenario].0,
                p.game,
                p.turn,
                names.join(","),
                Label::from_hex(p.hex).map_or_else(String::new, |l| l.to_string()),
            ));
        }
    }
    Report {
        positions: found.len(),
        exact,
        tests,
        failures,
        sampled: why,
        blocked_retreats,
        captures,
        took,
        plays,
    }
}

/// `f` of the scenario's rules.
fn rules_of<T>(
    scenario: &model::Scenario,
    catalog: &model::Catalog,
    f: impl FnOnce(&Rules<'_>) -> T,
) -> T {
    f(&Rules::new(scenario, catalog))
}

/// The units in and around the assaulted hex, for a position that disagrees.
fn show(rules: &Rules<'_>, p: &Position, odds: &odds::MeleeOdds) {
    let s = rules.scenario;
    for u in p.state.units() {
        if let Some(h) = u.hex()
            && h.unsigned_distance_to(p.hex) <= 2
        {
            println!(
                "    {} {} side {:?} at {} terrain {:?} {:?}",
                s.unit_name(u.id),
                rules.typ(u).id,
                u.side,
                Label::from_hex(h).map_or_else(String::new, |l| l.to_string()),
                rules.map().terrain(h).map(|t| t.id.clone()),
                u.state
            );
        }
    }
    println!("    odds: {:?}", odds.defenders_end);
}

fn side_of(p: &Position) -> Side {
    p.state.unit(p.attackers[0]).side
}

/// Plays game `n` of a scenario between its own AIs and keeps the position before each
/// assault declared (not overruns).
fn assaults(rules: &Rules<'_>, scenario: usize, seed: u64, n: u64, out: &mut Vec<Position>) {
    let players = ai::Players::of(rules.scenario).expect("the scenario's AIs");
    let seats = players.both().clone().map(Seat::ai);
    let mut game = Game::new(
        *rules,
        GameRng::for_game(seed, n),
        GameRng::for_game(seed.wrapping_add(1), n),
        seats,
    );
    game.advance().expect("the game's own dice");
    let mut state = State::new(rules.scenario);
    let mut turn = 0;
    for e in game.events() {
        match e {
            Event::TurnStarted { turn: t, .. } => turn = *t,
            Event::AssaultDeclared { hex, attackers, .. } => out.push(Position {
                scenario,
                game: n,
                turn,
                state: state.clone(),
                attackers: attackers.to_vec(),
                hex: *hex,
            }),
            _ => {}
        }
        state.apply(e);
    }
}

/// How often each unit of the fight met each fate over `plays` plays of the assault.
fn engine(
    rules: &Rules<'_>,
    p: &Position,
    ai: &dyn counters::SideAi,
    plays: u32,
) -> Vec<(UnitId, [u32; 5])> {
    let command = Command::Assault {
        units: p.attackers.clone(),
        hex: p.hex,
    };
    let mut rng = GameRng::seed_from_u64(0x67);
    let mut ai_rng = GameRng::seed_from_u64(0);
    let mut s = p.state.clone();
    let mut events = Vec::new();
    let mut counts: Vec<(UnitId, [u32; 5])> = Vec::new();
    for _ in 0..plays {
        s.clone_from(&p.state);
        events.clear();
        let with = ExecuteWith {
            dice: &mut rng,
            ai,
            ai_rng: &mut ai_rng,
            asking: None,
        };
        execute_with(&mut s, rules, &command, with, &mut events).expect("the AI's own assault");
        let played = odds::played(&p.state, &s, &events, &p.attackers, p.hex);
        for (u, f) in played.fates {
            match counts.iter_mut().find(|(v, _)| *v == u) {
                Some((_, c)) => c[f] += 1,
                None => {
                    let mut c = [0; 5];
                    c[f] = 1;
                    counts.push((u, c));
                }
            }
        }
    }
    counts
}

/// The chi-square test's p-value of `observed` counts out of `n` against `expected` chances,
/// categories expected fewer than 5 times pooled into one; a pooled category expected less
/// than once that was seen is judged against a Poisson tail instead.
fn chi_square_p(expected: &[f64; 5], observed: &[u32; 5], n: u32) -> f64 {
    let n = f64::from(n);
    let (mut cells, mut small_e, mut small_o) = (Vec::new(), 0.0, 0.0);
    for (e, &o) in expected.iter().zip(observed) {
        let e = e * n;
        if e < 5.0 {
            small_e += e;
            small_o += f64::from(o);
        } else {
            cells.push((e, f64::from(o)));
        }
    }
    if small_e >= 5.0 {
        cells.push((small_e, small_o));
    } else if small_o > 0.0 {
        // Seen where the odds expect almost nothing: the chance of so many by Poisson.
        let tail = poisson_upper(small_e, small_o);
        if tail < 1e-12 {
            return tail;
        }
    }
    if cells.len() < 2 {
        return 1.0;
    }
    let x: f64 = cells.iter().map(|(e, o)| (o - e).powi(2) / e).sum();
    gamma_q((cells.len() - 1) as f64 / 2.0, x / 2.0)
}

/// P(X >= k) for X ~ Poisson(lambda).
fn poisson_upper(lambda: f64, k: f64) -> f64 {
    if lambda <= 0.0 {
        return 0.0;
    }
    1.0 - gamma_q(k, lambda)
}

/// The regularized upper incomplete gamma function Q(a, x) (Numerical Recipes' series and
/// continued fraction).
fn gamma_q(a: f64, x: f64) -> f64 {
    if x <= 0.0 {
        return 1.0;
    }
    let ln_gamma_a = ln_gamma(a);
    if x < a + 1.0 {
        let (mut sum, mut term, mut ap) = (1.0 / a, 1.0 / a, a);
        for _ in 0..1000 {
            ap += 1.0;
            term *= x / ap;
            sum += term;
            if term.abs() < sum.abs() * 1e-15 {
                break;
            }
        }
        1.0 - sum * (-x + a * x.ln() - ln_gamma_a).exp()
    } else {
        let tiny = 1e-300;
        let mut b = x + 1.0 - a;
        let mut c = 1.0 / tiny;
        let mut d = 1.0 / b;
        let mut h = d;
        for i in 1..1000 {
            let an = -f64::from(i) * (f64::from(i) - a);
            b += 2.0;
            d = an * d + b;
            if d.abs() < tiny {
                d = tiny;
            }
            c = b + an / c;
            if c.abs() < tiny {
                c = tiny;
            }
            d = 1.0 / d;
            let del = d * c;
            h *= del;
            if (del - 1.0).abs() < 1e-15 {
                break;
            }
        }
        (-x + a * x.ln() - ln_gamma_a).exp() * h
    }
}

/// ln Γ(x), Lanczos.
fn ln_gamma(x: f64) -> f64 {
    const G: [f64; 6] = [
        76.180_091_729_471_46,
        -86.505_320_329_416_77,
        24.014_098_240_830_91,
        -1.231_739_572_450_155,
        0.001_208_650_973_866_179,
        -0.000_005_395_239_384_953,
    ];
    let mut y = x;
    let tmp = x + 5.5;
    let tmp = tmp - (x + 0.5) * tmp.ln();
    let mut ser = 1.000_000_000_190_015;
    for g in G {
        y += 1.0;
        ser += g / y;
    }
    -tmp + (2.506_628_274_631_000_5 * ser / x).ln()
}
