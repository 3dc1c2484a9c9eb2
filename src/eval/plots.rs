//! SVG figures (plotters, SVG backend only; no fonts or system libraries): retrieved-context
//! tokens vs field recall per router (paper Figure 1 analogue) and routing-prompt tokens vs
//! inventory size (Figure 4 analogue).

use super::EvalReport;
use super::scaling::ScalingReport;
use plotters::prelude::*;
use std::path::{Path, PathBuf};

/// File name of the context-vs-recall figure.
pub const CONTEXT_VS_RECALL: &str = "context_vs_recall.svg";
/// File name of the prompt-size figure.
pub const PROMPT_TOKENS: &str = "prompt_tokens_vs_tools.svg";

fn err<E: std::fmt::Debug>(e: E) -> String {
    format!("cannot draw the figure: {e:?}")
}

const COLOURS: [RGBColor; 8] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
    RGBColor(214, 39, 40),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(127, 127, 127),
];

/// An axis label: whole numbers with thousands separators (`12,500`), small values with
/// up to two decimals.
fn label(v: &f64) -> String {
    if v.abs() < 10.0 && v.fract() != 0.0 {
        return format!("{v:.2}");
    }
    let n = v.round() as i64;
    let digits = n.abs().to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    if n < 0 { format!("-{out}") } else { out }
}

/// Bounds of a log axis covering `values` with some margin.
fn log_bounds(values: impl Iterator<Item = f64>) -> (f64, f64) {
    let (mut lo, mut hi) = (f64::INFINITY, 0.0f64);
    for v in values.filter(|v| *v > 0.0) {
        lo = lo.min(v);
        hi = hi.max(v);
    }
    if !lo.is_finite() {
        return (1.0, 10.0);
    }
    (lo / 2.0, (hi * 2.0).max(lo * 4.0))
}

/// Figure 1 analogue: one point per router at (mean retrieved-context tokens, field recall).
///
/// Errors: drawing fails (never for well-formed reports).
pub fn context_vs_recall_svg(r: &EvalReport) -> Result<String, String> {
    let points: Vec<(String, f64, f64)> = r
        .routers
        .iter()
        .map(|x| {
            (
                x.router.clone(),
                x.summary.context_tokens_mean.max(1.0),
                100.0 * x.summary.recall.unwrap_or(0.0),
            )
        })
        .collect();
    let (lo, hi) = log_bounds(points.iter().map(|p| p.1));
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (860, 560)).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let mut chart = ChartBuilder::on(&root)
            .caption(
                format!(
                    "Retrieved context vs field recall ({}, --from {})",
                    r.run.bench,
                    r.run.mode.as_str()
                ),
                ("sans-serif", 20),
            )
            .margin(24)
            .x_label_area_size(50)
            .y_label_area_size(60)
            .build_cartesian_2d((lo..hi).log_scale(), 0.0f64..105.0)
            .map_err(err)?;
        chart
            .configure_mesh()
            .x_desc("retrieved-context tokens per query (mean, o200k_base, log scale)")
            .y_desc("field recall (%)")
            .x_label_formatter(&label)
            .y_label_formatter(&|v| format!("{v:.0}"))
            .draw()
            .map_err(err)?;
        for (i, (name, x, y)) in points.iter().enumerate() {
            let c = COLOURS[i % COLOURS.len()];
            let dy = if i % 2 == 0 { -10 } else { 18 };
            chart
                .draw_series(std::iter::once(
                    EmptyElement::at((*x, *y))
                        + Circle::new((0, 0), 6, c.filled())
                        + Text::new(name.clone(), (9, dy), ("sans-serif", 14).into_font()),
                ))
                .map_err(err)?;
        }
        root.present().map_err(err)?;
    }
    Ok(svg)
}

/// Figure 4 analogue: prompt-all and intent-registry prompt tokens against the tool count.
///
/// Errors: drawing fails (never for well-formed reports).
pub fn prompt_tokens_svg(r: &ScalingReport) -> Result<String, String> {
    let all: Vec<(f64, f64)> = r
        .rows
        .iter()
        .map(|x| (x.tools as f64, x.prompt_all_tokens as f64))
        .collect();
    let ours: Vec<(f64, f64)> = r
        .rows
        .iter()
        .map(|x| (x.tools as f64, x.registry_tokens as f64))
        .collect();
    let without: Vec<(f64, f64)> = r
        .rows
        .iter()
        .map(|x| {
            (
                x.tools as f64,
                x.registry_tokens.saturating_sub(x.tool_list_tokens).max(1) as f64,
            )
        })
        .collect();
    let (xlo, xhi) = log_bounds(all.iter().map(|p| p.0));
    let (ylo, yhi) = log_bounds(all.iter().chain(&ours).chain(&without).map(|p| p.1));
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (860, 560)).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let mut chart = ChartBuilder::on(&root)
            .caption("Routing prompt size vs inventory size", ("sans-serif", 20))
            .margin(24)
            .x_label_area_size(50)
            .y_label_area_size(70)
            .build_cartesian_2d((xlo..xhi).log_scale(), (ylo..yhi).log_scale())
            .map_err(err)?;
        chart
            .configure_mesh()
            .x_desc("tools in the inventory (log scale)")
            .y_desc("prompt tokens (o200k_base, log scale)")
            .x_label_formatter(&label)
            .y_label_formatter(&label)
            .draw()
            .map_err(err)?;
        for (series, name, c) in [
            (&all, "prompt-all (whole schema)", COLOURS[3]),
            (&ours, "intent registry (SchemaRouter)", COLOURS[0]),
            (
                &without,
                "intent registry without the tool list",
                COLOURS[2],
            ),
        ] {
            chart
                .draw_series(LineSeries::new(series.iter().copied(), c.stroke_width(2)))
                .map_err(err)?
                .label(name)
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], c));
            chart
                .draw_series(series.iter().map(|p| Circle::new(*p, 4, c.filled())))
                .map_err(err)?;
        }
        chart
            .configure_series_labels()
            .background_style(WHITE.mix(0.9))
            .border_style(BLACK)
            .position(SeriesLabelPosition::UpperLeft)
            .draw()
            .map_err(err)?;
        root.present().map_err(err)?;
    }
    Ok(svg)
}

/// The error for a `--plots` path that exists and is not a folder, if it is one.
pub fn check_dir(dir: &Path) -> Result<(), String> {
    if dir.exists() && !dir.is_dir() {
        return Err(format!(
            "--plots {}: the path exists and is not a folder",
            dir.display()
        ));
    }
    Ok(())
}

fn write(dir: &Path, name: &str, svg: &str) -> Result<PathBuf, String> {
    check_dir(dir)?;
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let p = dir.join(name);
    std::fs::write(&p, svg).map_err(|e| format!("cannot write {}: {e}", p.display()))?;
    Ok(p)
}

/// Write the context-vs-recall figure into `dir`.
///
/// Errors: drawing or writing fails.
pub fn write_eval_plot(dir: &Path, r: &EvalReport) -> Result<PathBuf, String> {
    write(dir, CONTEXT_VS_RECALL, &context_vs_recall_svg(r)?)
}

/// Write the prompt-size figure into `dir`.
///
/// Errors: drawing or writing fails.
pub fn write_scaling_plot(dir: &Path, r: &ScalingReport) -> Result<PathBuf, String> {
    write(dir, PROMPT_TOKENS, &prompt_tokens_svg(r)?)
}
