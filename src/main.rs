use konane::rules::*;
use std::sync::atomic::AtomicBool;
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let size: BoardSize = args[1].parse().unwrap();
    let depth: usize = args[2].parse().unwrap();
    let mj: MultiJump = args.get(3).map(|s| s.parse().unwrap()).unwrap_or_default();
    let v = Variant {
        size,
        opening: Opening::Diagonal,
        multi_jump: mj,
    };
    let stop = AtomicBool::new(false);
    let pos = AnyPosition::start(v);
    konane::with_position!(pos, p => {
        let mut perft = Perft::new(&stop);
        for d in 1..=depth {
            let t = std::time::Instant::now();
            let n = perft.count(&p, d).unwrap();
            let el = t.elapsed().as_secs_f64();
            println!("{d} {n} {:.3}s {:.1} Mnps", el, n as f64 / el / 1e6);
        }
    });
}
