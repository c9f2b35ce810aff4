#[test]
fn api_adds() {
    assert_eq!(gate::add(10, 4), 14);
}
