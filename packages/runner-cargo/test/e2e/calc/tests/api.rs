#[test]
fn api_adds() {
    assert_eq!(calc::add(1, 1), 2);
}

#[test]
fn api_subtracts() {
    assert_eq!(calc::sub(10, 4), 6);
}
