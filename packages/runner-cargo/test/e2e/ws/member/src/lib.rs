/// Four times the value.
pub fn quadruple(x: i32) -> i32 {
    util::double(x) + x
}

#[cfg(test)]
mod tests {
    #[test]
    fn quadruples() {
        assert_eq!(super::quadruple(3), 12);
    }
}
