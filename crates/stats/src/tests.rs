//! Unit tests of the statistics.

use crate::wilson;

#[test]
fn wilson_interval_matches_known_values() {
    // Reference values from the closed form (Wilson 1927, z = 1.96).
    let [lo, hi] = wilson(50, 100);
    assert!((lo - 0.403_8).abs() < 1e-4 && (hi - 0.596_2).abs() < 1e-4);
    let [lo, hi] = wilson(0, 10);
    assert!(lo == 0.0 && (hi - 0.277_5).abs() < 1e-4);
    let [lo, hi] = wilson(10, 10);
    assert!((lo - 0.722_5).abs() < 1e-4 && (hi - 1.0).abs() < 1e-12);
    let [lo, hi] = wilson(9_000, 10_000);
    assert!((lo - 0.894_0).abs() < 1e-4 && (hi - 0.905_8).abs() < 1e-4);
}
