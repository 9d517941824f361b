//! The tree as a standalone SVG picture to open in a browser: leaves side by
//! side, each parent centred over its children, max nodes as red triangles
//! pointing up, min nodes as yellow triangles pointing down (the players'
//! colours), ends as boxes and depth-limit estimates as circles. The chosen
//! path is thick and red; cut branches are dashed and grey.

use super::text::label;
use super::{Node, NodeKind, Tree};
use quick_xml::escape::escape;
use std::fmt::Write;

/// Horizontal room per leaf, vertical room per level, and the margins.
const DX: f64 = 90.0;
const DY: f64 = 90.0;
const MARGIN: f64 = 30.0;
const TOP: f64 = 110.0;

/// The tree as an SVG document.
#[must_use]
pub fn to_svg(tree: &Tree) -> String {
    let mut laid = Vec::new();
    let mut next_leaf = 0.0;
    let levels = layout(&tree.root, 0, &mut next_leaf, &mut laid);
    let width = (next_leaf * DX).max(600.0) + 2.0 * MARGIN;
    let height = TOP + f64::from(levels) * DY + MARGIN;
    let mut out = String::new();
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="Helvetica, Arial, sans-serif" font-size="13">"#
    );
    let _ = writeln!(out, "<title>{}</title>", escape(&tree.title));
    let _ = writeln!(out, r#"<rect width="100%" height="100%" fill="white"/>"#);
    let _ = writeln!(
        out,
        r#"<text x="{MARGIN}" y="24" font-size="15" font-weight="bold">{}</text>"#,
        escape(&tree.title)
    );
    let [p1, p2] = &tree.players;
    let mut legend = vec![
        format!("Values to {p1}. ▲ max: {p1} to move. ▼ min: {p2} to move."),
        "■ game over (payoff). ● depth limit (estimate). Red: the path minimax chooses.".to_owned(),
    ];
    if tree.alpha_beta {
        legend.push("Dashed grey: branches alpha-beta cuts.".to_owned());
    }
    for (i, line) in legend.iter().enumerate() {
        let y = 44.0 + 16.0 * i as f64;
        let _ = writeln!(
            out,
            r##"<text x="{MARGIN}" y="{y}" fill="#444">{}</text>"##,
            escape(line)
        );
    }
    for l in &laid {
        if let Some((px, py)) = l.parent {
            edge(&mut out, l, px, py);
        }
    }
    for l in &laid {
        shape(&mut out, l, tree);
    }
    out.push_str("</svg>\n");
    out
}

/// A node with its position and its parent's.
struct Laid<'a> {
    node: &'a Node,
    x: f64,
    y: f64,
    parent: Option<(f64, f64)>,
}

/// Places `node`'s shown subtree, leaves left to right; returns the number
/// of levels below and including `node`.
fn layout<'a>(node: &'a Node, depth: u32, next_leaf: &mut f64, laid: &mut Vec<Laid<'a>>) -> u32 {
    let index = laid.len();
    let y = TOP + f64::from(depth) * DY;
    laid.push(Laid {
        node,
        x: 0.0,
        y,
        parent: None,
    });
    let mut levels = 1;
    let mut xs = Vec::new();
    for child in node.shown_children() {
        let child_index = laid.len();
        levels = levels.max(1 + layout(child, depth + 1, next_leaf, laid));
        xs.push(child_index);
    }
    let x = match (xs.first(), xs.last()) {
        (Some(&a), Some(&b)) => (laid[a].x + laid[b].x) / 2.0,
        _ => {
            *next_leaf += 1.0;
            MARGIN + (*next_leaf - 0.5) * DX
        }
    };
    laid[index].x = x;
    for i in xs {
        laid[i].parent = Some((x, y));
    }
    levels
}

fn edge(out: &mut String, l: &Laid, px: f64, py: f64) {
    let style = if l.node.cut {
        r##"stroke="#9e9e9e" stroke-dasharray="6 4""##
    } else if l.node.chosen {
        r##"stroke="#c62828" stroke-width="3""##
    } else {
        r##"stroke="#333""##
    };
    let (x, y) = (l.x, l.y);
    let _ = writeln!(
        out,
        r#"<line x1="{px}" y1="{}" x2="{x}" y2="{}" {style}/>"#,
        py + 36.0,
        y - 14.0
    );
    let mv = escape(l.node.mv.as_deref().unwrap_or_default()).into_owned();
    let (mx, my) = ((px + x) / 2.0, (py + 36.0 + y) / 2.0);
    let text = if l.node.cut { format!("{mv} ✂") } else { mv };
    let fill = if l.node.cut { "#9e9e9e" } else { "#1565c0" };
    let _ = writeln!(
        out,
        r#"<text x="{}" y="{my}" fill="{fill}" font-weight="bold" text-anchor="end">{text}</text>"#,
        mx - 4.0
    );
}

fn shape(out: &mut String, l: &Laid, tree: &Tree) {
    let (x, y) = (l.x, l.y);
    let (fill, stroke, width) = match (l.node.cut, l.node.chosen, l.node.kind) {
        (true, _, _) => ("#f5f5f5", "#9e9e9e", 1),
        (false, chosen, kind) => (
            match kind {
                NodeKind::Max => "#ffcdd2",
                NodeKind::Min => "#fff59d",
                NodeKind::End(_) => "#e0e0e0",
                NodeKind::Horizon => "#e3f2fd",
            },
            if chosen { "#c62828" } else { "#333" },
            if chosen { 3 } else { 1 },
        ),
    };
    let paint = format!(r#"fill="{fill}" stroke="{stroke}" stroke-width="{width}""#);
    let _ = writeln!(out, "<g><title>{}</title>", escape(label(l.node, tree)));
    let _ = match l.node.kind {
        NodeKind::Max => writeln!(
            out,
            r#"<polygon points="{x},{} {},{} {},{}" {paint}/>"#,
            y - 14.0,
            x - 16.0,
            y + 13.0,
            x + 16.0,
            y + 13.0
        ),
        NodeKind::Min => writeln!(
            out,
            r#"<polygon points="{x},{} {},{} {},{}" {paint}/>"#,
            y + 14.0,
            x - 16.0,
            y - 13.0,
            x + 16.0,
            y - 13.0
        ),
        NodeKind::End(_) => writeln!(
            out,
            r#"<rect x="{}" y="{}" width="28" height="26" {paint}/>"#,
            x - 14.0,
            y - 13.0
        ),
        NodeKind::Horizon => writeln!(out, r#"<circle cx="{x}" cy="{y}" r="14" {paint}/>"#),
    };
    let colour = if l.node.cut { "#9e9e9e" } else { "#000" };
    let _ = writeln!(
        out,
        r#"<text x="{x}" y="{}" text-anchor="middle" fill="{colour}" font-weight="bold">{}</text>"#,
        y + 30.0,
        escape(l.node.value_text())
    );
    out.push_str("</g>\n");
}
