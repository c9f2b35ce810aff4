/// Twice the value.
pub fn double(x: i32) -> i32 {
    x * 2
}
