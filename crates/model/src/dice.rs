//! R0.1, R0.3, R7.2: the dice. One seeded, portable generator owned by the caller; scripted
//! dice for tests; uniform random picks made from d6 rolls so that every die is in an event.

use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use smallvec::SmallVec;

/// Faces of dice rolled together (inline up to 12, so rolling does not allocate).
pub type Faces = SmallVec<[u8; 12]>;

/// Running out of scripted dice: the only way a roll can fail.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the scripted dice ran out after {used} dice")]
pub struct OutOfDice {
    /// How many dice were rolled before.
    pub used: usize,
}

/// A source of six-sided dice (R0.3). The game's generator and scripted dice implement it.
pub trait Dice {
    /// One die, 1..=6.
    ///
    /// # Errors
    /// [`OutOfDice`] when scripted dice are exhausted; the game's generator never fails.
    fn d6(&mut self) -> Result<u8, OutOfDice>;

    /// `n` dice.
    ///
    /// # Errors
    /// [`OutOfDice`] as for [`Dice::d6`].
    fn roll(&mut self, n: u32) -> Result<Faces, OutOfDice> {
        let mut faces = Faces::new();
        for _ in 0..n {
            faces.push(self.d6()?);
        }
        Ok(faces)
    }
}

/// The game's generator: Xoshiro256++ (a named, portable algorithm), with the d6 derived in our
/// own code (three bits at a time, rejecting 6 and 7) so that games do not depend on rand's
/// sampling internals (R0.3). Serde writes its whole state, so that a saved game can carry the
/// AIs' generator where it stood.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct GameRng {
    rng: Xoshiro256PlusPlus,
    bits: u64,
    left: u32,
}

impl GameRng {
    /// A generator from a seed.
    ///
    /// ```
    /// use model::{Dice, GameRng};
    /// let mut a = GameRng::seed_from_u64(7);
    /// let mut b = GameRng::seed_from_u64(7);
    /// assert_eq!(a.roll(10).unwrap(), b.roll(10).unwrap());
    /// ```
    #[must_use]
    pub fn seed_from_u64(seed: u64) -> Self {
        Self {
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
            bits: 0,
            left: 0,
        }
    }

    /// The generator of game `index` of a batch seeded with `seed`: depends only on the pair, so
    /// results do not depend on threads or shards.
    #[must_use]
    pub fn for_game(seed: u64, index: u64) -> Self {
        Self::seed_from_u64(splitmix(splitmix(seed) ^ index))
    }

    /// The next 64 bits the generator gives, to seed another (the search AI's own).
    pub fn next_seed(&mut self) -> u64 {
        self.rng.next_u64()
    }
}

fn splitmix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl GameRng {
    /// One die; the generator never runs out.
    #[inline]
    fn face(&mut self) -> u8 {
        loop {
            if self.left == 0 {
                self.bits = self.rng.next_u64();
                self.left = 21;
            }
            let v = (self.bits & 7) as u8;
            self.bits >>= 3;
            self.left -= 1;
            if v < 6 {
                return v + 1;
            }
        }
    }
}

impl Dice for GameRng {
    fn d6(&mut self) -> Result<u8, OutOfDice> {
        Ok(self.face())
    }

    fn roll(&mut self, n: u32) -> Result<Faces, OutOfDice> {
        // One dispatch per roll rather than per die.
        Ok((0..n).map(|_| self.face()).collect())
    }
}

/// A fixed list of faces, for tests and conformance cases (R0.3).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ScriptedDice {
    faces: Vec<u8>,
    next: usize,
}

impl ScriptedDice {
    /// Dice that will show these faces in order.
    #[must_use]
    pub fn new(faces: Vec<u8>) -> Self {
        Self { faces, next: 0 }
    }

    /// Faces not rolled yet.
    #[must_use]
    pub fn remaining(&self) -> &[u8] {
        &self.faces[self.next..]
    }
}

impl Dice for ScriptedDice {
    fn d6(&mut self) -> Result<u8, OutOfDice> {
        let face = *self
            .faces
            .get(self.next)
            .ok_or(OutOfDice { used: self.next })?;
        self.next += 1;
        Ok(face)
    }
}

/// A test on `need`+ (R0.1): a natural 6 always passes, a natural 1 always fails.
#[must_use]
pub fn passes(die: u8, need: u8) -> bool {
    die == 6 || (die != 1 && die >= need)
}

/// The chance that one die meets `need` (R0.1: a 6 always passes, a 1 always fails): the one
/// home of the hit chance, used by the odds and by the AI's estimates.
#[must_use]
pub fn chance(need: u8) -> f64 {
    f64::from(7 - need.clamp(2, 6)) / 6.0
}

/// The exact distribution of the successes of several groups of dice, `(dice, need)` each
/// (index = successes).
#[must_use]
pub fn hits_distribution(groups: &[(u32, u8)]) -> Vec<f64> {
    let total: u32 = groups.iter().map(|&(n, _)| n).sum();
    let mut dist = Vec::with_capacity(usize::try_from(total).unwrap_or(0) + 1);
    dist.push(1.0);
    for &(n, need) in groups {
        let p = chance(need);
        for _ in 0..n {
            // One more die, in place from the top: k successes come from k - 1 and a hit, or k
            // and a miss.
            dist.push(0.0);
            for k in (1..dist.len()).rev() {
                dist[k] = dist[k - 1] * p + dist[k] * (1.0 - p);
            }
            dist[0] *= 1.0 - p;
        }
    }
    dist
}

/// Every way the dice of one rule step can fall, with its chance: the odds' side of a step the
/// engine plays with rolled dice. `step` is the rule's own function, given the dice it rolls;
/// it is run once for each sequence of faces it asks for (each face 1/6, a step asking no die
/// run once), and equal results are gathered with their summed chance, in the order first met.
/// A step that asks more than `MAX_STEP_DICE` dice is not a step (it would be enumerated in
/// 6^n runs): its results stop there, as if those dice never came.
///
/// ```
/// use model::{Dice, OutOfDice, every_fall, passes};
/// // Two tests on 4+, stopping at the first failure: passed both with chance 1/4.
/// let two = |d: &mut dyn Dice| -> Result<bool, OutOfDice> {
///     Ok(passes(d.d6()?, 4) && passes(d.d6()?, 4))
/// };
/// let falls = every_fall(two);
/// let both: f64 = falls.iter().filter(|(ok, _)| *ok).map(|(_, p)| p).sum();
/// assert!((both - 0.25).abs() < 1e-12);
/// ```
pub fn every_fall<T: PartialEq>(
    mut step: impl FnMut(&mut dyn Dice) -> Result<T, OutOfDice>,
) -> SmallVec<[(T, f64); 4]> {
    let mut out: SmallVec<[(T, f64); 4]> = SmallVec::new();
    // Depth first over the faces asked for, each sequence weighed 1/6 a die.
    let mut stack: SmallVec<[(Faces, f64); 16]> = SmallVec::new();
    stack.push((Faces::new(), 1.0));
    while let Some((faces, weight)) = stack.pop() {
        let mut dice = Prefix {
            faces: &faces,
            next: 0,
        };
        match step(&mut dice) {
            Ok(result) => match out.iter_mut().find(|(r, _)| *r == result) {
                Some(e) => e.1 += weight,
                None => out.push((result, weight)),
            },
            Err(OutOfDice { used }) if used == faces.len() && used < MAX_STEP_DICE => {
                for face in (1..=6).rev() {
                    let mut longer = faces.clone();
                    longer.push(face);
                    stack.push((longer, weight / 6.0));
                }
            }
            Err(_) => {}
        }
    }
    out
}

/// The most dice one rule step may roll for [`every_fall`] to enumerate.
pub const MAX_STEP_DICE: usize = 4;

/// The faces [`every_fall`] gives a step, then "out of dice" where it needs one more.
struct Prefix<'a> {
    faces: &'a [u8],
    next: usize,
}

impl Dice for Prefix<'_> {
    fn d6(&mut self) -> Result<u8, OutOfDice> {
        let face = *self
            .faces
            .get(self.next)
            .ok_or(OutOfDice { used: self.next })?;
        self.next += 1;
        Ok(face)
    }
}

/// The mean of a distribution over counts (index = count).
#[must_use]
pub fn mean(dist: &[f64]) -> f64 {
    dist.iter().enumerate().map(|(k, p)| k as f64 * p).sum()
}

/// Clamps a hit or test number to 2..=6 (R0.1).
#[must_use]
pub fn clamp_need(need: i32) -> u8 {
    u8::try_from(need.clamp(2, 6)).unwrap_or(6)
}

/// Picks `k` distinct indices out of `n`, uniformly, from d6 rolls (R7.2): each pick rolls
/// enough dice to make a base-6 number and rejects the top values that would bias the choice.
/// Returns the picks and every die rolled.
///
/// # Errors
/// [`OutOfDice`] for exhausted scripted dice.
pub fn pick_distinct(
    dice: &mut dyn Dice,
    n: usize,
    k: usize,
) -> Result<(SmallVec<[usize; 6]>, Faces), OutOfDice> {
    let mut pool: SmallVec<[usize; 8]> = (0..n).collect();
    let mut picks = SmallVec::new();
    let mut rolled = Faces::new();
    for _ in 0..k.min(n) {
        let m = pool.len();
        if m == 1 {
            picks.push(pool.remove(0));
            continue;
        }
        let mut span = 6usize;
        let mut digits = 1;
        while span < m {
            span *= 6;
            digits += 1;
        }
        let limit = span - span % m;
        let i = loop {
            let mut v = 0;
            for _ in 0..digits {
                let d = dice.d6()?;
                rolled.push(d);
                v = v * 6 + usize::from(d - 1);
            }
            if v < limit {
                break v % m;
            }
        };
        picks.push(pool.remove(i));
    }
    Ok((picks, rolled))
}
