//! Plots of `hexwar tune --plot` and `hexwar batch --plot`, drawn by plotters as SVG. Text is
//! measured with hexwar's own font, so the layout is the same on every machine.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use plotters::coord::Shift;
use plotters::prelude::*;
use stats::Summary;

use super::fonts;

/// Why a plot could not be drawn.
#[derive(Debug, thiserror::Error)]
#[error("the plot could not be drawn: {0}")]
pub struct PlotError(String);

fn err(e: impl std::fmt::Display) -> PlotError {
    PlotError(e.to_string())
}

/// Registers the font once for every plot.
fn font() -> Result<(), PlotError> {
    static DONE: OnceLock<Result<(), String>> = OnceLock::new();
    DONE.get_or_init(|| {
        plotters::style::register_font("sans-serif", FontStyle::Normal, fonts::REGULAR)
            .and_then(|()| {
                plotters::style::register_font("sans-serif", FontStyle::Bold, fonts::BOLD)
            })
            .map_err(|_| "the font did not load".to_owned())
    })
    .clone()
    .map_err(PlotError)
}

/// The colours of the two sides, and of a third line.
const SIDE: [RGBColor; 2] = [RGBColor(0xc8, 0x55, 0x3d), RGBColor(0x3f, 0x6f, 0xa8)];
const INK: RGBColor = RGBColor(0x33, 0x33, 0x33);

/// One value of a tuned stat: its win rate and Wilson 95% interval.
#[derive(Clone, Copy, Debug)]
pub struct TunePoint {
    /// The stat's value.
    pub value: i64,
    /// The tuned side's win rate.
    pub win_rate: f64,
    /// Its Wilson 95% interval.
    pub ci95: [f64; 2],
}

/// What a tune plot shows.
pub struct Tune<'a> {
    /// `t72.assault`.
    pub stat: &'a str,
    /// The side whose win rate it is.
    pub side: &'a str,
    /// The win rate aimed at.
    pub target: f64,
    /// Games per value.
    pub runs: u64,
    /// The values played.
    pub points: &'a [TunePoint],
    /// The value nearest the target.
    pub best: Option<i64>,
}

/// The win rate against the stat's value, with its interval as a band, the target line, and
/// the value nearest the target marked.
///
/// # Errors
/// When plotters fails to draw (no values, or a bug).
#[expect(clippy::cast_precision_loss, reason = "stat values are small")]
pub fn tune(t: &Tune<'_>) -> Result<String, PlotError> {
    font()?;
    let (Some(first), Some(last)) = (t.points.first(), t.points.last()) else {
        return Err(PlotError("no values were played".to_owned()));
    };
    let (lo, hi) = (first.value as f64 - 0.5, last.value as f64 + 0.5);
    let mut out = String::new();
    {
        let root = SVGBackend::with_string(&mut out, (720, 460)).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let mut chart = ChartBuilder::on(&root)
            .caption(
                format!("Win rate of {} as {} varies", t.side, t.stat),
                ("sans-serif", 18),
            )
            .margin(14)
            .x_label_area_size(42)
            .y_label_area_size(56)
            .build_cartesian_2d(lo..hi, 0f64..1f64)
            .map_err(err)?;
        chart
            .configure_mesh()
            .x_desc(t.stat)
            .y_desc(format!(
                "win rate ({} games per value, 95% Wilson interval)",
                t.runs
            ))
            .x_labels(t.points.len().min(20))
            .x_label_formatter(&|v| format!("{v:.0}"))
            .y_label_formatter(&|v| format!("{:.0}%", v * 100.0))
            .light_line_style(WHITE.mix(0.0))
            .draw()
            .map_err(err)?;
        let band: Vec<(f64, f64)> = t
            .points
            .iter()
            .map(|p| (p.value as f64, p.ci95[1]))
            .chain(t.points.iter().rev().map(|p| (p.value as f64, p.ci95[0])))
            .collect();
        chart
            .draw_series(std::iter::once(Polygon::new(
                band,
                SIDE[1].mix(0.18).filled(),
            )))
            .map_err(err)?
            .label("95% interval")
            .legend(|(x, y)| {
                Rectangle::new([(x, y - 5), (x + 18, y + 5)], SIDE[1].mix(0.18).filled())
            });
        chart
            .draw_series(DashedLineSeries::new(
                [(lo, t.target), (hi, t.target)],
                6,
                4,
                SIDE[0].stroke_width(2),
            ))
            .map_err(err)?
            .label(format!("target {:.0}%", t.target * 100.0))
            .legend(|(x, y)| PathElement::new([(x, y), (x + 18, y)], SIDE[0].stroke_width(2)));
        chart
            .draw_series(LineSeries::new(
                t.points.iter().map(|p| (p.value as f64, p.win_rate)),
                SIDE[1].stroke_width(2),
            ))
            .map_err(err)?
            .label("win rate")
            .legend(|(x, y)| PathElement::new([(x, y), (x + 18, y)], SIDE[1].stroke_width(2)));
        chart
            .draw_series(
                t.points
                    .iter()
                    .map(|p| Circle::new((p.value as f64, p.win_rate), 3, SIDE[1].filled())),
            )
            .map_err(err)?;
        if let Some(b) = t.best.and_then(|b| t.points.iter().find(|p| p.value == b)) {
            let at = (b.value as f64, b.win_rate);
            let text = format!("{} = {} ({:.0}%)", t.stat, b.value, b.win_rate * 100.0);
            // Beside the point, on the side with room.
            let right_half = at.0 > (lo + hi) / 2.0;
            let width = i32::try_from(text.chars().count() * 7).unwrap_or(200);
            let dx = if right_half { -12 - width } else { 12 };
            chart
                .draw_series([EmptyElement::at(at)
                    + Circle::new((0, 0), 8, SIDE[0].stroke_width(2))
                    + Text::new(text, (dx, -22), ("sans-serif", 13).into_font().color(&INK))])
                .map_err(err)?
                .label("nearest the target")
                .legend(|(x, y)| Circle::new((x + 9, y), 5, SIDE[0].stroke_width(2)));
        }
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::LowerRight)
            .background_style(WHITE.mix(0.85))
            .border_style(INK.mix(0.4))
            .draw()
            .map_err(err)?;
        root.present().map_err(err)?;
    }
    Ok(out)
}

/// One side's line of a skill trace: each rung's win rate and its interval, weakest first.
pub struct SkillLine<'a> {
    /// The side's id.
    pub side: &'a str,
    /// Win rate and Wilson 95% interval per rung.
    pub points: Vec<(f64, [f64; 2])>,
}

/// What a skill trace plot shows.
pub struct Skill<'a> {
    /// The scenario's title.
    pub scenario: &'a str,
    /// The fixed opponent.
    pub opponent: &'a str,
    /// Games a rung.
    pub runs: u64,
    /// The rungs' AIs, weakest first.
    pub ladder: &'a [String],
    /// A line per side traced.
    pub lines: &'a [SkillLine<'a>],
}

/// Each side's win rate at each rung of strength, with its interval as a bar.
///
/// # Errors
/// When plotters fails to draw (no rungs, or a bug).
#[expect(clippy::cast_precision_loss, reason = "a handful of rungs")]
pub fn skill(t: &Skill<'_>) -> Result<String, PlotError> {
    font()?;
    if t.ladder.is_empty() {
        return Err(PlotError("no rungs were played".to_owned()));
    }
    let hi = t.ladder.len() as f64 - 0.5;
    let mut out = String::new();
    {
        let root = SVGBackend::with_string(&mut out, (760, 460)).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let mut chart = ChartBuilder::on(&root)
            .caption(
                format!("Skill trace of {} against {}", t.scenario, t.opponent),
                ("sans-serif", 18),
            )
            .margin(14)
            .x_label_area_size(42)
            .y_label_area_size(56)
            .build_cartesian_2d(-0.5f64..hi, 0f64..1f64)
            .map_err(err)?;
        let ladder = t.ladder;
        chart
            .configure_mesh()
            .x_desc("the side's AI, weakest first")
            .y_desc(format!(
                "win rate ({} games a rung, 95% Wilson interval)",
                t.runs
            ))
            .x_labels(ladder.len() * 2 + 1)
            .x_label_formatter(&|v| {
                let r = v.round();
                if (v - r).abs() > 0.01 || r < 0.0 {
                    return String::new();
                }
                #[expect(
                    clippy::cast_possible_truncation,
                    clippy::cast_sign_loss,
                    reason = "a rung's index, checked non-negative"
                )]
                ladder.get(r as usize).cloned().unwrap_or_default()
            })
            .y_label_formatter(&|v| format!("{:.0}%", v * 100.0))
            .light_line_style(WHITE.mix(0.0))
            .draw()
            .map_err(err)?;
        for (k, line) in t.lines.iter().enumerate() {
            let colour = SIDE[k % 2];
            // The two sides' bars side by side, a little apart.
            let dx = (k as f64 - 0.5) * 0.08;
            chart
                .draw_series(LineSeries::new(
                    line.points
                        .iter()
                        .enumerate()
                        .map(|(i, p)| (i as f64 + dx, p.0)),
                    colour.stroke_width(2),
                ))
                .map_err(err)?
                .label(line.side.to_owned())
                .legend(move |(x, y)| {
                    PathElement::new([(x, y), (x + 18, y)], colour.stroke_width(2))
                });
            chart
                .draw_series(line.points.iter().enumerate().map(|(i, p)| {
                    ErrorBar::new_vertical(i as f64 + dx, p.1[0], p.0, p.1[1], colour.filled(), 8)
                }))
                .map_err(err)?;
        }
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperLeft)
            .background_style(WHITE.mix(0.85))
            .border_style(INK.mix(0.4))
            .draw()
            .map_err(err)?;
        root.present().map_err(err)?;
    }
    Ok(out)
}

/// What a batch plot shows: the summary, and the games by length (counted as they were played).
pub struct Batch<'a> {
    /// The summary of the games.
    pub summary: &'a Summary,
    /// Games per length in game turns.
    pub lengths: &'a BTreeMap<u32, u64>,
}

/// Four panels: win rates with intervals, the distribution of game length, losses by unit type,
/// and the turn each objective first fell.
///
/// # Errors
/// When plotters fails to draw.
pub fn batch(b: &Batch<'_>) -> Result<String, PlotError> {
    font()?;
    let mut out = String::new();
    {
        let root = SVGBackend::with_string(&mut out, (1100, 820)).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let s = b.summary;
        let root = root
            .titled(
                &format!("{}: {} games, seed {}", s.scenario, s.runs, s.seed),
                ("sans-serif", 20),
            )
            .map_err(err)?;
        let panels = root.split_evenly((2, 2));
        win_rates(&panels[0], s)?;
        lengths(&panels[1], b.lengths)?;
        losses(&panels[2], s)?;
        objectives(&panels[3], s)?;
        root.present().map_err(err)?;
    }
    Ok(out)
}

type Area<'a, 'b> = DrawingArea<SVGBackend<'a>, Shift>;

#[expect(clippy::cast_precision_loss, reason = "counts of games")]
fn win_rates(area: &Area<'_, '_>, s: &Summary) -> Result<(), PlotError> {
    let mut rows: Vec<(String, f64, [f64; 2], RGBColor)> = s
        .sides
        .iter()
        .zip(SIDE)
        .map(|(side, c)| (side.id.clone(), side.win_rate, side.ci95, c))
        .collect();
    if s.both_lose > 0 && s.runs > 0 {
        let p = s.both_lose as f64 / s.runs as f64;
        rows.push((
            "both lose".to_owned(),
            p,
            stats::wilson(s.both_lose, s.runs),
            INK,
        ));
    }
    let names: Vec<String> = rows.iter().map(|r| r.0.clone()).collect();
    let mut chart = ChartBuilder::on(area)
        .caption("Who wins (95% Wilson interval)", ("sans-serif", 15))
        .margin(12)
        .x_label_area_size(30)
        .y_label_area_size(50)
        .build_cartesian_2d(-0.5f64..(rows.len() as f64 - 0.5), 0f64..1f64)
        .map_err(err)?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_labels(rows.len())
        .x_label_formatter(&|v| label_at(&names, *v))
        .y_label_formatter(&|v| format!("{:.0}%", v * 100.0))
        .draw()
        .map_err(err)?;
    for (i, (_, rate, ci, colour)) in rows.iter().enumerate() {
        let x = i as f64;
        chart
            .draw_series([Rectangle::new(
                [(x - 0.3, 0.0), (x + 0.3, *rate)],
                colour.mix(0.75).filled(),
            )])
            .map_err(err)?;
        chart
            .draw_series([ErrorBar::new_vertical(
                x,
                ci[0],
                *rate,
                ci[1],
                INK.stroke_width(2),
                12,
            )])
            .map_err(err)?;
        chart
            .draw_series([Text::new(
                format!("{:.1}%", rate * 100.0),
                (x + 0.05, (ci[1] + 0.03).min(0.97)),
                ("sans-serif", 12).into_font().color(&INK),
            )])
            .map_err(err)?;
    }
    Ok(())
}

#[expect(clippy::cast_precision_loss, reason = "counts of games")]
fn lengths(area: &Area<'_, '_>, lengths: &BTreeMap<u32, u64>) -> Result<(), PlotError> {
    let max_turn = lengths.keys().max().copied().unwrap_or(1);
    let most = lengths.values().max().copied().unwrap_or(1).max(1);
    let mut chart = ChartBuilder::on(area)
        .caption("How long the games last", ("sans-serif", 15))
        .margin(12)
        .x_label_area_size(36)
        .y_label_area_size(56)
        .build_cartesian_2d(
            0.5f64..(f64::from(max_turn) + 0.5),
            0f64..(most as f64 * 1.1),
        )
        .map_err(err)?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_desc("game turns")
        .y_desc("games")
        .x_labels(usize::try_from(max_turn).unwrap_or(1).min(20))
        .x_label_formatter(&|v| format!("{v:.0}"))
        .y_label_formatter(&|v| format!("{v:.0}"))
        .draw()
        .map_err(err)?;
    chart
        .draw_series(lengths.iter().map(|(&t, &n)| {
            let x = f64::from(t);
            Rectangle::new(
                [(x - 0.4, 0.0), (x + 0.4, n as f64)],
                SIDE[1].mix(0.7).filled(),
            )
        }))
        .map_err(err)?;
    Ok(())
}

#[expect(clippy::cast_precision_loss, reason = "counts of games and units")]
fn losses(area: &Area<'_, '_>, s: &Summary) -> Result<(), PlotError> {
    let mut rows: Vec<(&String, f64)> = s
        .losses_by_type
        .iter()
        .map(|(t, &n)| (t, n as f64 / s.runs.max(1) as f64))
        .collect();
    rows.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(b.0)));
    rows.truncate(14);
    // The most lost at the top.
    let names: Vec<String> = rows.iter().rev().map(|r| r.0.clone()).collect();
    let top = rows.iter().map(|r| r.1).fold(0.0, f64::max).max(0.1) * 1.15;
    let n = rows.len().max(1);
    let mut chart = ChartBuilder::on(area)
        .caption("Units lost per game, by type", ("sans-serif", 15))
        .margin(12)
        .x_label_area_size(36)
        .y_label_area_size(96)
        .build_cartesian_2d(0f64..top, -0.5f64..(n as f64 - 0.5))
        .map_err(err)?;
    chart
        .configure_mesh()
        .disable_y_mesh()
        .y_labels(n)
        .y_label_formatter(&|v| label_at(&names, *v))
        .x_desc("units lost per game (both sides)")
        .x_label_formatter(&|v| format!("{v:.2}"))
        .draw()
        .map_err(err)?;
    chart
        .draw_series(rows.iter().rev().enumerate().map(|(i, (_, v))| {
            let y = i as f64;
            Rectangle::new([(0.0, y - 0.35), (*v, y + 0.35)], SIDE[0].mix(0.7).filled())
        }))
        .map_err(err)?;
    Ok(())
}

#[expect(clippy::cast_precision_loss, reason = "counts of games")]
fn objectives(area: &Area<'_, '_>, s: &Summary) -> Result<(), PlotError> {
    let last = s
        .objectives
        .iter()
        .flat_map(|o| o.first_held_in_turn.keys())
        .max()
        .copied()
        .unwrap_or(1)
        .max(1);
    let mut chart = ChartBuilder::on(area)
        .caption(
            "When the attacker first held each objective",
            ("sans-serif", 15),
        )
        .margin(12)
        .x_label_area_size(36)
        .y_label_area_size(56)
        .build_cartesian_2d(0.5f64..(f64::from(last) + 0.5), 0f64..1f64)
        .map_err(err)?;
    chart
        .configure_mesh()
        .x_desc("game turn")
        .y_desc("games in which it had fallen")
        .x_labels(usize::try_from(last).unwrap_or(1).min(20))
        .x_label_formatter(&|v| format!("{v:.0}"))
        .y_label_formatter(&|v| format!("{:.0}%", v * 100.0))
        .draw()
        .map_err(err)?;
    let palette = [
        SIDE[0],
        SIDE[1],
        RGBColor(0x2e, 0x7d, 0x32),
        RGBColor(0x8e, 0x44, 0xad),
    ];
    for (i, o) in s.objectives.iter().enumerate() {
        let colour = palette[i % palette.len()];
        let mut fallen = 0u64;
        let points: Vec<(f64, f64)> = (1..=last)
            .map(|t| {
                fallen += o.first_held_in_turn.get(&t).copied().unwrap_or(0);
                (f64::from(t), fallen as f64 / s.runs.max(1) as f64)
            })
            .collect();
        chart
            .draw_series(LineSeries::new(points, colour.stroke_width(2)))
            .map_err(err)?
            .label(o.name.clone())
            .legend(move |(x, y)| PathElement::new([(x, y), (x + 18, y)], colour.stroke_width(2)));
    }
    if s.objectives.is_empty() {
        chart
            .draw_series([Text::new(
                "the scenario has no objectives",
                (0.7, 0.5),
                ("sans-serif", 13).into_font().color(&INK),
            )])
            .map_err(err)?;
    } else {
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperLeft)
            .background_style(WHITE.mix(0.85))
            .border_style(INK.mix(0.4))
            .draw()
            .map_err(err)?;
    }
    Ok(())
}

/// The name at a whole-number position of a categorical axis.
fn label_at(names: &[String], v: f64) -> String {
    let i = v.round();
    if (v - i).abs() > 0.01 || i < 0.0 {
        return String::new();
    }
    #[expect(
        clippy::cast_possible_truncation,
        clippy::cast_sign_loss,
        reason = "checked whole and not negative"
    )]
    names.get(i as usize).cloned().unwrap_or_default()
}

/// An arena: each AI's rating with its 95% interval, and the matrix of head-to-head scores
/// (the row's score against the column), coloured from red (0%) through white to green (100%).
///
/// # Errors
/// When plotters fails to draw.
#[expect(clippy::cast_precision_loss, reason = "a handful of AIs")]
pub fn arena(s: &stats::arena::ArenaSummary) -> Result<String, PlotError> {
    font()?;
    let names: Vec<String> = s.arena.ais.iter().map(|e| e.name.clone()).collect();
    let n = names.len();
    let mut out = String::new();
    {
        let root = SVGBackend::with_string(&mut out, (1100, 520)).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let root = root
            .titled(
                &format!(
                    "Arena: {} AIs, {} scenarios, {} pairs per pairing and scenario, seed {}",
                    n,
                    s.arena.scenarios.len(),
                    s.arena.pairs,
                    s.arena.seed
                ),
                ("sans-serif", 20),
            )
            .map_err(err)?;
        let (left, right) = root.split_horizontally(560);
        // Ratings: one row per AI, strongest at the top.
        let rated: Vec<(String, f64, [f64; 2])> = s
            .ratings
            .iter()
            .filter_map(|r| Some((r.ai.clone(), r.elo?, r.ci95?)))
            .filter(|(_, e, [lo, hi])| e.is_finite() && lo.is_finite() && hi.is_finite())
            .collect();
        let mut rows = rated.clone();
        rows.sort_by(|a, b| a.1.total_cmp(&b.1));
        let lo = rows.iter().map(|r| r.2[0]).fold(0.0f64, f64::min) - 30.0;
        let hi = rows.iter().map(|r| r.2[1]).fold(0.0f64, f64::max) + 30.0;
        let labels: Vec<String> = rows.iter().map(|r| r.0.clone()).collect();
        let mut chart = ChartBuilder::on(&left)
            .caption(
                format!("Elo, {} = 0 (95% interval)", s.anchor),
                ("sans-serif", 15),
            )
            .margin(14)
            .x_label_area_size(30)
            .y_label_area_size(110)
            .build_cartesian_2d(lo..hi, -0.5f64..(rows.len() as f64 - 0.5))
            .map_err(err)?;
        chart
            .configure_mesh()
            .disable_y_mesh()
            .y_labels(rows.len().max(1))
            .y_label_formatter(&|v| label_at(&labels, *v))
            .x_label_formatter(&|v| format!("{v:+.0}"))
            .draw()
            .map_err(err)?;
        chart
            .draw_series([PathElement::new(
                [(0.0, -0.5), (0.0, rows.len() as f64 - 0.5)],
                INK.mix(0.5).stroke_width(1),
            )])
            .map_err(err)?;
        for (i, (_, e, [l, h])) in rows.iter().enumerate() {
            let y = i as f64;
            chart
                .draw_series([ErrorBar::new_horizontal(
                    y,
                    *l,
                    *e,
                    *h,
                    SIDE[1].stroke_width(2),
                    10,
                )])
                .map_err(err)?;
            chart
                .draw_series([Circle::new((*e, y), 5, SIDE[1].filled())])
                .map_err(err)?;
            chart
                .draw_series([Text::new(
                    format!("{e:+.0}"),
                    (*e, y + 0.22),
                    ("sans-serif", 12).into_font().color(&INK),
                )])
                .map_err(err)?;
        }
        // The matrix: row i, column j, AI i's score against AI j.
        let mut grid = ChartBuilder::on(&right)
            .caption(
                "Head to head: the row's score against the column",
                ("sans-serif", 15),
            )
            .margin(14)
            .x_label_area_size(40)
            .y_label_area_size(110)
            .build_cartesian_2d(-0.5f64..(n as f64 - 0.5), -0.5f64..(n as f64 - 0.5))
            .map_err(err)?;
        // Rows from the top in the order given.
        let flipped: Vec<String> = names.iter().rev().cloned().collect();
        grid.configure_mesh()
            .disable_mesh()
            .x_labels(n)
            .y_labels(n)
            .x_label_formatter(&|v| label_at(&names, *v))
            .y_label_formatter(&|v| label_at(&flipped, *v))
            .draw()
            .map_err(err)?;
        for (i, row) in s.matrix.iter().enumerate() {
            for (j, cell) in row.iter().enumerate() {
                let (x, y) = (j as f64, (n - 1 - i) as f64);
                let colour = cell.map_or(RGBColor(0xee, 0xee, 0xee), heat);
                grid.draw_series([Rectangle::new(
                    [(x - 0.48, y - 0.48), (x + 0.48, y + 0.48)],
                    colour.filled(),
                )])
                .map_err(err)?;
                let text = cell.map_or_else(|| "-".to_owned(), |v| format!("{:.0}%", v * 100.0));
                grid.draw_series([Text::new(
                    text,
                    (x - 0.15, y + 0.05),
                    ("sans-serif", 13).into_font().color(&INK),
                )])
                .map_err(err)?;
            }
        }
        root.present().map_err(err)?;
    }
    Ok(out)
}

/// A score's colour: red at 0, white at ½, green at 1.
fn heat(v: f64) -> RGBColor {
    let t = v.clamp(0.0, 1.0);
    let mix = |a: u8, b: u8, f: f64| -> u8 {
        #[expect(
            clippy::cast_possible_truncation,
            clippy::cast_sign_loss,
            reason = "between two bytes"
        )]
        let c = (f64::from(a) + (f64::from(b) - f64::from(a)) * f).round() as u8;
        c
    };
    let (low, high) = ((0xd7, 0x5f, 0x4c), (0x4c, 0xa8, 0x5f));
    if t < 0.5 {
        let f = t * 2.0;
        RGBColor(mix(low.0, 255, f), mix(low.1, 255, f), mix(low.2, 255, f))
    } else {
        let f = (t - 0.5) * 2.0;
        RGBColor(
            mix(255, high.0, f),
            mix(255, high.1, f),
            mix(255, high.2, f),
        )
    }
}
