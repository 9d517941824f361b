//! The tree as indented text for the terminal: one line per node, with
//! box-drawing branches, the chosen path in bold and marked `*`, and cut
//! branches marked `✂ cut`.

use super::{Node, NodeKind, Tree};
use crate::render::{paint, DIM, STRONG};
use std::fmt::Write;

/// The tree as text (with ANSI styles, which the output stream strips when
/// it is not a terminal).
#[must_use]
pub fn to_text(tree: &Tree) -> String {
    let mut out = String::new();
    let [p1, p2] = &tree.players;
    let _ = writeln!(out, "{}", paint(STRONG, &tree.title));
    let _ = writeln!(out, "Values are to {p1}: ▲ max = {p1} to move, takes the largest; ▼ min = {p2} to move, takes the smallest;");
    let _ = write!(
        out,
        "■ = game over (payoff), ● = depth limit (estimate). * marks the path minimax chooses."
    );
    if tree.alpha_beta {
        let _ = write!(out, " ✂ cut = alpha-beta never looks there.");
    }
    out.push_str("\n\n");
    line(&mut out, &tree.root, tree);
    out.push('\n');
    below(&mut out, &tree.root, "", tree);
    out
}

/// The label of one node: kind, value, and what the value means.
pub(super) fn label(node: &Node, tree: &Tree) -> String {
    let value = node.value_text();
    match node.kind {
        NodeKind::Max => format!("▲ max {value}"),
        NodeKind::Min => format!("▼ min {value}"),
        NodeKind::End(status) => match status.winner() {
            Some(p) => format!(
                "■ {value} ({} wins)",
                tree.players[usize::from(p.number() - 1)]
            ),
            None => format!("■ {value} (draw)"),
        },
        NodeKind::Horizon => format!("● {value} (estimate)"),
    }
}

fn line(out: &mut String, node: &Node, tree: &Tree) {
    let text = label(node, tree);
    if node.cut {
        out.push_str(&paint(DIM, &format!("✂ cut: {text}")));
    } else if node.chosen {
        out.push_str(&paint(STRONG, &format!("{text} *")));
    } else {
        out.push_str(&text);
    }
}

fn below(out: &mut String, node: &Node, prefix: &str, tree: &Tree) {
    let children = node.shown_children();
    for (i, child) in children.iter().enumerate() {
        let last = i + 1 == children.len();
        let branch = if last { "└─ " } else { "├─ " };
        let mv = child.mv.as_deref().unwrap_or_default();
        let mv = if child.chosen {
            paint(STRONG, mv)
        } else {
            mv.to_owned()
        };
        let _ = write!(out, "{prefix}{branch}{mv}: ");
        line(out, child, tree);
        out.push('\n');
        let deeper = format!("{prefix}{}", if last { "   " } else { "│  " });
        below(out, child, &deeper, tree);
    }
}
