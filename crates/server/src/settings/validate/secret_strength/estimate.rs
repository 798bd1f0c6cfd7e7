//! How many bits of guessing a secret is worth, as zxcvbn estimates it, without its limits.
//!
//! zxcvbn finds what a cracker tries first (dictionary words, names, keyboard runs,
//! repetitions, sequences, dates, l33t) and prices the cheapest way to cover the text with
//! such patterns and brute force. The `zxcvbn` crate counts guesses in a `u64`, so anything
//! past 2^64 (about 19 random characters) saturates and all longer texts tie; it scores the
//! first 100 characters only; and past 20 patterns its factorial overflows. So zxcvbn scores
//! only short windows here, each well inside those limits, and the patterns it finds there
//! are combined over the whole secret by the same minimisation, in bits (log2) instead of a
//! `u64`: the cheapest sequence of patterns, `log2(count!) + Σ log2(guesses)`.

use std::f64::consts::LOG2_10;
use zxcvbn::matching::patterns::MatchPattern;

/// Characters zxcvbn scores at once: at most 10^16 guesses (~53 bits, no saturation) and
/// at most 16 patterns (16! fits).
const WINDOW: usize = 16;

/// Characters of a secret that are scored; the rest counts for nothing, which can only
/// make the estimate lower. Twice what `gen-secret` prints.
const MAX_SCORED_CHARS: usize = 128;

/// A pattern covering `chars[start..end]`, worth `bits`.
#[derive(Debug, Clone, Copy)]
struct Pattern {
    start: usize,
    end: usize,
    bits: f64,
}

/// The estimated strength of `secret` in bits (log2 of the guesses to find it).
pub fn bits(secret: &str) -> f64 {
    let chars: Vec<char> = secret.chars().take(MAX_SCORED_CHARS).collect();
    cheapest_cover(&chars)
}

fn cheapest_cover(chars: &[char]) -> f64 {
    let n = chars.len();
    if n == 0 {
        return 0.0;
    }
    let mut patterns = windowed_patterns(chars);
    patterns.extend(long_repeats(chars));
    let mut ending_at: Vec<Vec<Pattern>> = vec![Vec::new(); n + 1];
    for pattern in patterns {
        ending_at[pattern.end].push(pattern);
    }
    // best[k][l]: the fewest bits of `l` patterns covering chars[..k]. Brute force over any
    // span costs log2(10) a character, zxcvbn's own price for a character it cannot place.
    let mut best = vec![vec![f64::INFINITY; n + 1]; n + 1];
    best[0][0] = 0.0;
    for end in 1..=n {
        let brute_force = (0..end).map(|start| Pattern {
            start,
            end,
            bits: (end - start) as f64 * LOG2_10,
        });
        for pattern in ending_at[end].iter().copied().chain(brute_force) {
            for count in 1..=end {
                let before = best[pattern.start][count - 1];
                if before + pattern.bits < best[end][count] {
                    best[end][count] = before + pattern.bits;
                }
            }
        }
    }
    // zxcvbn also adds 10^4 per further pattern, which only rewards length made of many
    // small patterns: left out, so a phrase counts for its words alone.
    (1..=n)
        .map(|count| best[n][count] + log2_factorial(count))
        .fold(f64::INFINITY, f64::min)
}

/// The patterns zxcvbn picks in the window starting at each character.
fn windowed_patterns(chars: &[char]) -> Vec<Pattern> {
    let mut patterns = Vec::new();
    for start in 0..chars.len() {
        let end = (start + WINDOW).min(chars.len());
        let window: String = chars[start..end].iter().collect();
        for found in zxcvbn::zxcvbn(&window, &[]).sequence() {
            if matches!(found.pattern, MatchPattern::BruteForce) {
                continue;
            }
            // Always set on the sequence zxcvbn returns; at least 1.
            let guesses = found.guesses.unwrap_or(u64::MAX).max(1);
            patterns.push(Pattern {
                start: start + found.i,
                end: start + found.j + 1,
                bits: (guesses as f64).log2(),
            });
        }
    }
    patterns
}

/// Repetitions longer than a window, which zxcvbn cannot see whole: `block` repeated
/// `count` times costs what `block` costs, plus log2(count). Only the shortest period of a
/// span is taken (`abab…` is `ab` repeated, not `abab`).
fn long_repeats(chars: &[char]) -> Vec<Pattern> {
    let n = chars.len();
    let mut found: Vec<Pattern> = Vec::new();
    for period in 1..=n / 2 {
        let mut start = 0;
        while start + period < n {
            let mut end = start;
            while end + period < n && chars[end] == chars[end + period] {
                end += 1;
            }
            // chars[start..end + period] repeats with this period.
            let count = (end - start + period) / period;
            let span_end = start + count * period;
            let covered = found
                .iter()
                .any(|known| known.start <= start && span_end <= known.end);
            if count >= 2 && span_end - start > WINDOW && !covered {
                let block = cheapest_cover(&chars[start..start + period]);
                found.push(Pattern {
                    start,
                    end: span_end,
                    bits: block + (count as f64).log2(),
                });
            }
            start = end.max(start) + 1;
        }
    }
    found
}

fn log2_factorial(count: usize) -> f64 {
    (2..=count).map(|factor| (factor as f64).log2()).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_texts_score_as_zxcvbn_scores_them() {
        for text in [
            "password",
            "Tr0ub4dor&3",
            "qwertyuiop",
            "correcthorse",
            "x7#Kq",
        ] {
            let zxcvbn = zxcvbn::zxcvbn(text, &[]).guesses_log10() * LOG2_10;
            let ours = bits(text);
            // zxcvbn adds 10^4 per further pattern, which we leave out: never more.
            assert!(ours <= zxcvbn + 1e-9, "{text}: {ours} > {zxcvbn}");
            assert!(ours >= zxcvbn - 14.0, "{text}: {ours} far below {zxcvbn}");
        }
    }

    #[test]
    fn random_characters_are_worth_about_log2_10_each_past_zxcvbns_u64() {
        let secret = "q8ZvN3kX1wR7tY5uB2mC9pL4sD6fG0hJ";
        let estimate = bits(secret);
        assert!(estimate > 64.0, "not capped at u64: {estimate}");
        assert!(estimate <= secret.len() as f64 * LOG2_10 + 1e-9);
    }

    #[test]
    fn a_repetition_longer_than_a_window_costs_its_block_once() {
        let block = "q8ZvN3kX1wR7tY5uB2mC";
        let once = bits(block);
        let twice = bits(&block.repeat(2));
        assert!(twice <= once + 2.0, "{twice} vs {once}");
        assert!(bits(&"0123456789".repeat(5)) < 40.0);
        assert!(bits(&"k".repeat(MAX_SCORED_CHARS * 2)) < 20.0);
    }

    #[test]
    fn only_the_first_characters_are_scored() {
        let long = format!("{}{}", "a".repeat(MAX_SCORED_CHARS), "q8ZvN3kX1wR7tY5u");
        assert!(bits(&long) < 20.0);
    }
}
