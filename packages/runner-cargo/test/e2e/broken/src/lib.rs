pub fn total(items: &[i32]) -> i32 {
    let counter: i32 = items.iter().sum();
    countr
}

#[cfg(test)]
mod tests {
    #[test]
    fn totals() {
        assert_eq!(super::total(&[1, 2]), 3);
    }
}
