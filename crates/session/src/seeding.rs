//! How every game hexwar plays is seeded, in `batch`, `tune`, `test`, `arena`, `run`, `show`,
//! `render`, `replay` and `play`: game `i` of a batch seeded with `seed` rolls the dice of
//! `(seed, i)`, so any game of a batch can be played again alone (`hexwar run --seed S --game I`).

use model::GameRng;

/// Mixed into the batch seed for the random AI's own generator, so it never shares the dice.
pub const AI_SALT: u64 = 0xA1_5EED;

/// The dice and the random AI's generator of game `game` of a batch seeded with `seed`.
#[must_use]
pub fn game_dice(seed: u64, game: u64) -> (GameRng, GameRng) {
    (
        GameRng::for_game(seed, game),
        GameRng::for_game(seed ^ AI_SALT, game),
    )
}
