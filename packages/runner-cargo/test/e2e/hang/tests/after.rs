#[test]
fn runs_after_the_hang() {
    assert_eq!(2 * 2, 4);
}
