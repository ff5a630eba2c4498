//! The text of a batch summary (`hexwar batch`, `hexwar merge`): win rates with their
//! intervals, how battles ended, victory points, game length, losses by unit type and when
//! each objective fell.

use std::fmt::Write as _;

use stats::Summary;

/// A readable summary table.
#[must_use]
pub fn render(s: &Summary) -> String {
    let pct = |x: f64| format!("{:.1}%", x * 100.0);
    let mut out = format!(
        "{}: {} game{}, seed {}{}\n\n",
        s.scenario,
        s.runs,
        if s.runs == 1 { "" } else { "s" },
        s.seed,
        incomplete(s)
    );
    let _ = writeln!(
        out,
        "{:<12} {:>7} {:>9}  {:<18} VP MEAN ± SD",
        "SIDE", "WINS", "WIN RATE", "95% CI (Wilson)"
    );
    for side in &s.sides {
        let _ = writeln!(
            out,
            "{:<12} {:>7} {:>9}  {:<18} {:.2} ± {:.2}",
            side.id,
            side.wins,
            pct(side.win_rate),
            format!("[{}, {}]", pct(side.ci95[0]), pct(side.ci95[1])),
            side.vp_mean,
            side.vp_sd
        );
    }
    let n = s.runs.max(1) as f64;
    let _ = writeln!(
        out,
        "both lose    {:>7} {:>9}",
        s.both_lose,
        pct(s.both_lose as f64 / n)
    );
    let reasons: Vec<String> = s
        .end_reasons
        .iter()
        .map(|(k, v)| format!("{k} {}", pct(*v as f64 / n)))
        .collect();
    let _ = writeln!(out, "\nended by: {}", reasons.join(", "));
    let _ = writeln!(
        out,
        "game length: {:.2} ± {:.2} turns",
        s.turns_mean, s.turns_sd
    );
    let m = &s.measures;
    let ci = |c: [f64; 2]| format!("[{}, {}]", pct(c[0]), pct(c[1]));
    let _ = writeln!(
        out,
        "\nmeasures (95% intervals):\n  balance       {:>6}  {}  (1 - the gap between the win rates)\n  decisiveness  {:>6}  {}  (decided before the turn limit)\n  drawishness   {:>6}  {}  (both lose)\n  lead changes  {:>6.2}  [{:.2}, {:.2}]  a game, sd {:.2}  (who would win if it ended now)",
        pct(m.balance),
        ci(m.balance_ci95),
        pct(m.decisiveness),
        ci(m.decisiveness_ci95),
        pct(m.drawishness),
        ci(m.drawishness_ci95),
        m.lead_changes,
        m.lead_changes_ci95[0],
        m.lead_changes_ci95[1],
        m.lead_changes_sd,
    );
    if let (Some(edge), Some([lo, hi])) = (m.first_mover, m.first_mover_ci95) {
        let _ = writeln!(
            out,
            "  first mover   {:>+6.1}  [{:+.1}, {:+.1}] points  (the same games with the other side first)",
            edge * 100.0,
            lo * 100.0,
            hi * 100.0
        );
    }
    out.push('\n');
    let mut losses: Vec<(&String, &u64)> = s.losses_by_type.iter().collect();
    losses.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
    let losses: Vec<String> = losses
        .iter()
        .map(|(k, v)| format!("{k} {:.2}", **v as f64 / n))
        .collect();
    let _ = writeln!(
        out,
        "units lost per game, by type: {}",
        if losses.is_empty() {
            "none".to_owned()
        } else {
            losses.join(", ")
        }
    );
    if matches!(s.time_of_day.as_str(), "dawn" | "dusk") {
        let (what, by) = if s.time_of_day == "dawn" {
            ("dawn", "day")
        } else {
            ("dusk", "night")
        };
        let _ = writeln!(
            out,
            "\n{what} (R13.3): {by} had come by turn (share of games, cumulative; games that ended \
             first count as not yet):\n  {}",
            cumulative(&s.time_changed_in_turn, n)
        );
    }
    if !s.objectives.is_empty() {
        let _ = writeln!(
            out,
            "\nthe attacker first held each objective by the end of turn (share of games, cumulative; \
             it may have lost it again, so these are not wins):"
        );
        for o in &s.objectives {
            let _ = writeln!(
                out,
                "  {}: {}",
                o.name,
                cumulative(&o.first_held_in_turn, n)
            );
        }
    }
    if let Some(r) = &s.reach {
        reach(&mut out, r, s.runs);
    }
    out
}

/// What the games left alone: terrain entered in few games or none, hexes no unit entered,
/// units that never fought (`--heatmap` draws where they went).
fn reach(out: &mut String, r: &stats::heat::Reach, runs: u64) {
    let share = |k: u64| {
        if k == 0 {
            "never".to_owned()
        } else {
            #[expect(
                clippy::cast_precision_loss,
                reason = "a share of games, shown rounded"
            )]
            let p = k as f64 / runs.max(1) as f64 * 100.0;
            format!("{p:.0}%")
        }
    };
    let terrain: Vec<String> = r
        .terrain
        .iter()
        .map(|t| format!("{} {}", t.terrain, share(t.games_entered)))
        .collect();
    let _ = writeln!(
        out,
        "\nterrain a unit entered (share of games): {}",
        terrain.join(", ")
    );
    let never: Vec<&str> = r
        .terrain
        .iter()
        .filter(|t| t.games_entered == 0)
        .map(|t| t.terrain.as_str())
        .collect();
    if !never.is_empty() {
        let _ = writeln!(
            out,
            "  no unit ever entered: {} (is the way there open, and worth taking?)",
            never.join(", ")
        );
    }
    let hexes = &r.hexes_never_entered;
    if !hexes.is_empty() {
        const SHOWN: usize = 16;
        let more = hexes
            .len()
            .checked_sub(SHOWN)
            .filter(|&m| m > 0)
            .map_or_else(String::new, |m| format!(" and {m} more"));
        let _ = writeln!(
            out,
            "hexes no unit entered in any game ({}): {}{more}",
            hexes.len(),
            hexes
                .iter()
                .take(SHOWN)
                .cloned()
                .collect::<Vec<_>>()
                .join(" ")
        );
    }
    let idle: Vec<&str> = r
        .units
        .iter()
        .filter(|u| u.games_fought == 0)
        .map(|u| u.unit.as_str())
        .collect();
    if idle.is_empty() {
        let _ = writeln!(out, "every unit fought in some game");
    } else {
        let _ = writeln!(
            out,
            "units that never fought (fired, were fired on, assaulted or were assaulted) in any game: {}",
            idle.join(", ")
        );
    }
}

/// Games per turn as a cumulative share of `n` games (`T3 32.3%  T4 90.9%`), or `never`.
fn cumulative(by_turn: &std::collections::BTreeMap<u32, u64>, n: f64) -> String {
    let mut acc = 0;
    let cells: Vec<String> = by_turn
        .iter()
        .map(|(t, k)| {
            acc += k;
            format!("T{t} {:.1}%", acc as f64 / n * 100.0)
        })
        .collect();
    if cells.is_empty() {
        "never".to_owned()
    } else {
        cells.join("  ")
    }
}

/// What an incomplete summary lacks, said after its count of games: an interrupted batch, or
/// shards missing from a merge (`merge --partial`).
fn incomplete(s: &Summary) -> String {
    if s.complete {
        return String::new();
    }
    let of = s
        .identity
        .as_ref()
        .map_or_else(String::new, |i| format!(" of {}", i.runs));
    let missing = s.missing_shards();
    if missing.is_empty() {
        format!(" (INCOMPLETE: interrupted; the{of} games played whole are counted)")
    } else {
        let count = s.identity.as_ref().map_or(1, |i| i.shard_count);
        let lacking: u64 = missing.iter().map(|r| r.end - r.start).sum();
        format!(
            " (INCOMPLETE: {lacking} of {count} shards missing; the games{of} merged are counted)"
        )
    }
}
