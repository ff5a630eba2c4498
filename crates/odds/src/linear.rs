//! The little linear algebra the whole-melee chain needs: each position's few nodes (who tests,
//! whether it was struck, who strikes next) lead back to one another in rounds that change
//! nothing, and are settled as one small linear system.

/// Solves `a x = b` for the `n` x `n` matrix `a`, for `k` right-hand sides at once (`b` holds
/// them one after another, and receives the solutions), by Gaussian elimination with partial
/// pivoting; `None` if `a` is singular (a fight that could go on for ever).
pub(crate) fn solve(a: &mut [[f64; 6]; 6], n: usize, b: &mut [f64], k: usize) -> Option<()> {
    for col in 0..n {
        let pivot = (col..n).max_by(|&i, &j| a[i][col].abs().total_cmp(&a[j][col].abs()))?;
        if a[pivot][col].abs() < 1e-12 {
            return None;
        }
        a.swap(col, pivot);
        for c in 0..k {
            b.swap(col * k + c, pivot * k + c);
        }
        for row in 0..n {
            if row != col {
                let f = a[row][col] / a[col][col];
                if f == 0.0 {
                    continue;
                }
                let pivot_row = a[col];
                for (x, p) in a[row][col..n].iter_mut().zip(&pivot_row[col..n]) {
                    *x -= f * p;
                }
                for c in 0..k {
                    b[row * k + c] -= f * b[col * k + c];
                }
            }
        }
    }
    for i in 0..n {
        for c in 0..k {
            b[i * k + c] /= a[i][i];
        }
    }
    Some(())
}

#[cfg(test)]
mod tests {
    use super::solve;

    #[test]
    fn solves_a_small_system_for_two_right_hand_sides() {
        // 2x + y = 5, x + 3y = 10 (x = 1, y = 3); and = 3, = 4 (x = 1, y = 1). The first column's
        // larger entry is in the second row's place after the swap the pivoting makes.
        let mut a = [[0.0; 6]; 6];
        a[0][..2].copy_from_slice(&[1.0, 3.0]);
        a[1][..2].copy_from_slice(&[2.0, 1.0]);
        // b holds, row by row, the two right-hand sides.
        let mut b = [10.0, 4.0, 5.0, 3.0];
        solve(&mut a, 2, &mut b, 2).expect("not singular");
        for (got, want) in b.iter().zip([1.0, 1.0, 3.0, 1.0]) {
            assert!((got - want).abs() < 1e-12, "{b:?}");
        }
    }

    #[test]
    fn a_singular_system_has_no_solution() {
        let mut a = [[0.0; 6]; 6];
        a[0][..2].copy_from_slice(&[1.0, 2.0]);
        a[1][..2].copy_from_slice(&[2.0, 4.0]);
        let mut b = [1.0, 2.0];
        assert!(solve(&mut a, 2, &mut b, 1).is_none());
    }
}
