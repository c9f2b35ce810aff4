/// Something with an area.
pub trait Area {
    fn area(&self) -> f64;
}

pub struct Square {
    pub side: f64,
}

impl Area for Square {
    fn area(&self) -> f64 {
        self.side * 4.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn square_area() {
        let s = Square { side: 3.0 };
        assert_eq!(s.area(), 9.0);
    }
}
