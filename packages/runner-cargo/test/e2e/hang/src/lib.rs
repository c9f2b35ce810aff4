#[cfg(test)]
mod tests {
    #[test]
    fn quick() {
        assert_eq!(1 + 1, 2);
    }

    #[test]
    fn waits_forever() {
        loop {
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
    }
}
