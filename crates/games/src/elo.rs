//! Elo ratings from a round robin's results: a Bradley-Terry fit (draws
//! count half a win to each side), so every game counts, not only those
//! between neighbours. One virtual draw is added to every pair that met,
//! so a player who won every game gets a large but finite rating.

/// The score of player `i` against player `j` (wins + draws / 2) and the
/// games they played, for every pair.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Results {
    /// `score[i][j]`: what `i` scored against `j`.
    pub score: Vec<Vec<f64>>,
    /// `games[i][j]`: games between `i` and `j` (symmetric).
    pub games: Vec<Vec<u32>>,
}

impl Results {
    /// No games yet between `n` players.
    #[must_use]
    pub fn new(n: usize) -> Self {
        Results {
            score: vec![vec![0.0; n]; n],
            games: vec![vec![0; n]; n],
        }
    }

    /// Records a game between `i` and `j`: `points` is what `i` scored
    /// (1 a win, 0.5 a draw, 0 a loss).
    pub fn record(&mut self, i: usize, j: usize, points: f64) {
        self.score[i][j] += points;
        self.score[j][i] += 1.0 - points;
        self.games[i][j] += 1;
        self.games[j][i] += 1;
    }

    /// The share of the points `i` took against `j` (`None`: they never met).
    #[must_use]
    pub fn rate(&self, i: usize, j: usize) -> Option<f64> {
        let games = self.games[i][j];
        (games > 0).then(|| self.score[i][j] / f64::from(games))
    }

    /// Elo ratings, the first player at 0.
    #[must_use]
    pub fn elo(&self) -> Vec<f64> {
        let n = self.score.len();
        // With one virtual draw per pair that met.
        let games = |i: usize, j: usize| {
            let g = f64::from(self.games[i][j]);
            if g > 0.0 {
                g + 1.0
            } else {
                0.0
            }
        };
        let score = |i: usize, j: usize| {
            if self.games[i][j] > 0 {
                self.score[i][j] + 0.5
            } else {
                0.0
            }
        };
        // Minorisation-maximisation (Hunter 2004): gamma_i = W_i / sum_j
        // n_ij / (gamma_i + gamma_j); converges for a connected schedule.
        let mut gamma = vec![1.0_f64; n];
        for _ in 0..10_000 {
            let mut next = gamma.clone();
            for i in 0..n {
                let wins: f64 = (0..n).map(|j| score(i, j)).sum();
                let denominator: f64 = (0..n)
                    .filter(|&j| j != i)
                    .map(|j| games(i, j) / (gamma[i] + gamma[j]))
                    .sum();
                if denominator > 0.0 {
                    next[i] = wins / denominator;
                }
            }
            let norm = next[0];
            let mut change: f64 = 0.0;
            for (g, new) in gamma.iter_mut().zip(&next) {
                let new = new / norm;
                change = change.max((new / *g).ln().abs());
                *g = new;
            }
            if change < 1e-10 {
                break;
            }
        }
        gamma.iter().map(|g| 400.0 * g.log10()).collect()
    }
}

/// The Elo difference that makes `rate` the expected score (clamped away
/// from 0 and 1, where it is infinite).
#[must_use]
pub fn difference(rate: f64) -> f64 {
    let rate = rate.clamp(0.001, 0.999);
    -400.0 * (1.0 / rate - 1.0).log10()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn even_results_give_equal_ratings() {
        let mut r = Results::new(3);
        for (i, j) in [(0, 1), (0, 2), (1, 2)] {
            r.record(i, j, 1.0);
            r.record(i, j, 0.0);
        }
        for e in r.elo() {
            assert!(e.abs() < 1e-6, "{e}");
        }
    }

    #[test]
    fn a_player_scoring_three_quarters_is_about_191_elo_stronger() {
        let mut r = Results::new(2);
        for points in [1.0, 1.0, 1.0, 0.0, 1.0, 1.0, 0.5, 0.5, 0.0, 1.0] {
            r.record(1, 0, points);
        }
        // 7 of 10, plus the virtual draw: 7.5 of 11.
        let expected = difference(7.5 / 11.0);
        let elo = r.elo();
        assert!(elo[0].abs() < 1e-9);
        assert!((elo[1] - expected).abs() < 1e-6, "{elo:?} vs {expected}");
        assert!((difference(0.75) - 190.8).abs() < 0.1);
        assert_eq!(r.rate(1, 0), Some(0.7));
    }

    #[test]
    fn a_clean_sweep_is_finite_and_ordered() {
        let mut r = Results::new(3);
        for _ in 0..4 {
            r.record(1, 0, 1.0);
            r.record(2, 1, 1.0);
            r.record(2, 0, 1.0);
        }
        let elo = r.elo();
        assert!(elo.iter().all(|e| e.is_finite()), "{elo:?}");
        assert!(elo[0] < elo[1] && elo[1] < elo[2], "{elo:?}");
    }
}
