#!/usr/bin/env python3
"""The scaling model of bench/NOTES.md ("Scaling past two GPUs: a model (2026-11-23)"): predicted
parallel efficiency of one bitpacked lattice (k = 16) cut into bands, one per GPU, 8 GPUs per host
over NVLink and hosts over 400 Gb/s InfiniBand, from the measured figures below; and the largest
lattice each cluster size holds. Prints the markdown tables the note shows.

Usage: scripts/scaling_model.py   (no arguments; edit the constants to try other assumptions)
"""

# ---- measured (bench/NOTES.md, the scaling model) --------------------------------------------------
RATE = {"H200": 3.2e13, "H100": 2.7e13}  # bitpacked k=16 cell updates/s on one GPU (65536², 16384²)
MEMORY = {"H200": 141e9, "H100": 80e9}  # bytes on the board
USABLE = {"H200": 139e9, "H100": 78e9}  # what a band may take: context, NCCL buffers and pools left out
BYTES_PER_CELL = 0.2578  # bitpacked, both buffers (a band's halos are extra: counted below)
K = 16  # generations per launch = halo rows exchanged per side per launch
HALO = 16  # halo rows each side of a band's buffer (k rounded up to 16), stepped as well
# NCCL exchange of both edges inside a host (NVLink): 13 us at 16 KB per side, 16 us at 256 KB.
NCCL_POINTS = ((16e3, 13e-6), (256e3, 16e-6))
NVLINK_BW_PEER = 3.75e6 / 10e-6  # peer copy slope: 256 KB in ~3 us, 4 MB in ~13 us -> 375 GB/s
NVLINK_BW_NCCL = (256e3 - 16e3) / 3e-6  # NCCL's own slope between its two points: 80 GB/s (pessimistic)

# ---- assumed ------------------------------------------------------------------------------------
IB_BW = 50e9  # 400 Gb/s per direction, one NIC per GPU (DGX-style), full duplex
IB_LATENCY = 5e-6  # wire + switch + NIC, one hop
NCCL_OVERHEAD = 13e-6  # NCCL's fixed cost of a send/recv group, as measured over NVLink at 16 KB
GPUS_PER_HOST = 8
SPLIT_OVERHEAD = 5e-6  # hiding: edge strips launched apart from the interior (two more launches)
MAX_SIDE_NOW = 1 << 20  # kMaxLatticeSide today (src/core/lattice.hpp)


def compute_s(gpu, width, rows):
    """One launch of k generations on a band of `rows` own rows (its halos are stepped too)."""
    return width * (rows + 2 * HALO) * K / RATE[gpu]


def exchange_s(width, gpus, nvlink_bw):
    """Both edges of the slowest band: over NVLink inside one host, else the host-boundary band's IB
    edge (its NVLink edge runs at the same time and is quicker)."""
    side_bytes = K * width / 8
    if gpus == 1:
        return 0.0  # the band's own rows, copied on its GPU: inside the launch's noise
    (s0, t0), (s1, t1) = NCCL_POINTS
    # Measured up to 256 KB (interpolated); beyond, the measured 256 KB time plus the rest at
    # `nvlink_bw` (the peer copy's slope, or NCCL's own small-message slope as the pessimistic case).
    if side_bytes <= s1:
        nvlink = t0 + (side_bytes - s0) * (t1 - t0) / (s1 - s0)
    else:
        nvlink = t1 + (side_bytes - s1) / nvlink_bw
    if gpus <= GPUS_PER_HOST:
        return nvlink
    return max(nvlink, NCCL_OVERHEAD + IB_LATENCY + side_bytes / IB_BW)


def edge_s(gpu, width):
    """Hiding: the two edge strips the neighbours need (2k own rows each side, k generations) first."""
    return width * 2 * (2 * K) * K / RATE[gpu]


def fits(gpu, width, rows):
    return width * (rows + 2 * HALO) * BYTES_PER_CELL <= USABLE[gpu]


def row(gpu, side, gpus, height=None, nvlink_bw=NVLINK_BW_PEER):
    height = height or side
    rows = height // gpus
    ideal = side * height * K / RATE[gpu] / gpus  # a perfect split: no halos, no exchange
    tc = compute_s(gpu, side, rows)
    tx = exchange_s(side, gpus, nvlink_bw)
    serial = tc + tx
    hidden = max(tc + (SPLIT_OVERHEAD if gpus > 1 else 0), edge_s(gpu, side) + tx)
    return {"gpu": gpu, "side": side, "height": height, "gpus": gpus, "hosts": -(-gpus // GPUS_PER_HOST),
            "rows": rows, "tc_ms": tc * 1e3, "tx_us": tx * 1e6, "eff_serial": ideal / serial,
            "eff_hidden": ideal / hidden, "exposed": tx / serial, "fits": fits(gpu, side, rows)}


def side_name(n):
    for p in range(10, 31):
        if n == 1 << p:
            return f"2^{p}"
    return str(n)


def main():
    print("Strong scaling (bands of side/P rows), efficiency against P x one GPU's rate:\n")
    print("| GPU | lattice | GPUs (hosts) | rows/GPU | launch ms | exchange us (NCCL slope) | exposed | "
          "efficiency, exchange after launch | efficiency, exchange hidden | fits |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for gpu in ("H200", "H100"):
        for side in (1 << 20, 1 << 22):
            for gpus in (8, 64, 512):
                r = row(gpu, side, gpus)
                slow = row(gpu, side, gpus, nvlink_bw=NVLINK_BW_NCCL)
                fit = "yes" if r["fits"] else "**no**"
                tx = f"{r['tx_us']:.0f}" + (f" ({slow['tx_us']:.0f})" if slow["tx_us"] != r["tx_us"] else "")
                print(f"| {gpu} | {side_name(side)}² | {gpus} ({r['hosts']}) | {r['rows']} | {r['tc_ms']:.2f} | "
                      f"{tx} | {100 * r['exposed']:.1f}% | {100 * r['eff_serial']:.1f}% | "
                      f"{100 * r['eff_hidden']:.1f}% | {fit} |")
    print("\nChecks against the 2-GPU goals (H200, one host) and weak scaling (65536 x 65536 per GPU):\n")
    print("| case | GPUs | launch ms | exchange us | exposed | efficiency (serial) | speedup vs 1 GPU |")
    print("|---|---|---|---|---|---|---|")
    for label, side, gpus, height in [("strong 65536²", 65536, 2, 65536),
                                      ("weak 65536 rows/GPU", 65536, 2, 65536 * 2),
                                      ("weak 65536 rows/GPU", 65536, 8, 65536 * 8),
                                      ("weak 65536 rows/GPU", 65536, 64, 65536 * 64),
                                      ("weak 65536 rows/GPU", 65536, 512, 65536 * 512)]:
        r = row("H200", side, gpus, height=height)
        one = compute_s("H200", side, height if label.startswith("strong") else 65536)
        print(f"| {label} | {gpus} | {r['tc_ms']:.3f} | {r['tx_us']:.1f} | {100 * r['exposed']:.1f}% | "
              f"{100 * r['eff_serial']:.1f}% | {gpus * r['eff_serial']:.2f}x |" if label.startswith("weak") else
              f"| {label} | {gpus} | {r['tc_ms']:.3f} | {r['tx_us']:.1f} | {100 * r['exposed']:.1f}% | "
              f"{100 * r['eff_serial']:.1f}% | {one / (r['tc_ms'] * 1e-3 + r['tx_us'] * 1e-6):.2f}x |")
    print("\nLargest lattice each cluster holds (memory-bound square side, a multiple of 32; "
          f"{BYTES_PER_CELL} B per cell, usable {USABLE['H200'] / 1e9:.0f} GB of 141 GB per H200, "
          f"{USABLE['H100'] / 1e9:.0f} GB of 80 GB per H100):\n")
    print("| GPUs | H200: cells | H200: square side | H100: cells | H100: square side |")
    print("|---|---|---|---|---|")
    for gpus in (1, 2, 8, 64, 512):
        cells = {g: gpus * USABLE[g] / BYTES_PER_CELL for g in USABLE}
        sides = {g: int(cells[g] ** 0.5) // 32 * 32 for g in USABLE}
        cap = {g: f"{sides[g]:,}" + (" (2^20 today)" if sides[g] > MAX_SIDE_NOW else "") for g in USABLE}
        print(f"| {gpus} | {cells['H200']:.2e} | {cap['H200']} | {cells['H100']:.2e} | {cap['H100']} |")


if __name__ == "__main__":
    main()
