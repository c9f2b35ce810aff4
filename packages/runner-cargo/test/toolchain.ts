/**
 * cargo without the network: CI has no crates.io, and the fixtures use std only. cargo itself is on
 * every machine this project is built on (rustup), so the suites that need it always run.
 */
process.env.CARGO_NET_OFFLINE = 'true';

export {};
