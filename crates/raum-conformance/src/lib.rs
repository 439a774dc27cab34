pub mod naive;
pub mod seed_diagram;
