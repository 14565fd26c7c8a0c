"""Sign rounds 1 to ROUNDS of the TEST beacon and write them as a recorded-rounds file.

Run by tools/make-test-beacon in a throwaway virtual environment holding py_ecc (and drand-verify, to
check every signature the way the resolver will). The secret key is SHA-256 of SECRET_SENTENCE, a public
sentence: the TEST beacon is NOT SECRET, anyone can sign any of its rounds, and it exists only so that
demos and tests can use recorded beacon rounds without the network.

The signing is drand's quicknet scheme (bls-unchained-g1-rfc9380): the message is SHA-256 of the round
number as 8 big-endian bytes, hashed to G1 with the RFC 9380 suite below; the signature is on G1 (48 bytes
compressed), the public key on G2 (96 bytes compressed).
"""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path

from py_ecc.bls.g2_primitives import G1_to_pubkey, G2_to_signature
from py_ecc.bls.hash_to_curve import hash_to_G1
from py_ecc.optimized_bls12_381 import G2, curve_order, multiply

SECRET_SENTENCE = b"campaign-kit TEST beacon: this key is public, for demos and tests only"
DST = b"BLS_SIG_BLS12381G1_XMD:SHA-256_SSWU_RO_NUL_"  # quicknet's domain separation tag
GENESIS = 1704067200  # 2024-01-01 00:00:00 UTC: round 1, long past, so every round is already "published"
PERIOD = 3  # seconds between rounds, as on quicknet
ROUNDS = 600  # one round per turn of the 500-turn benchmark, with room to spare

HEADER = """\
# Recorded rounds of the TEST beacon. NOT SECRET: its signing key is SHA-256 of the public sentence below,
# so anyone can sign any round, and dice that depend on it can be foreseen by anyone. It stands in for
# drand's quicknet in demos and tests, which never reach the network; a real campaign refuses it.
# Signed as quicknet signs (bls-unchained-g1-rfc9380). Written by tools/make-test-beacon: do not edit.
"""


def secret_key() -> int:
    key = int.from_bytes(hashlib.sha256(SECRET_SENTENCE).digest(), "big") % curve_order
    assert key != 0
    return key


def sign(key: int, round_number: int) -> bytes:
    message = hashlib.sha256(round_number.to_bytes(8, "big")).digest()
    return G1_to_pubkey(multiply(hash_to_G1(message, DST, hashlib.sha256), key))


def check(round_number: int, signature: str, public_key: str) -> None:
    """Verify with drand-verify, the library the resolver uses, when it is installed."""
    try:
        import drand_verify
    except ImportError:
        return
    randomness = drand_verify.verify_quicknet(round_number, signature, public_key)
    assert randomness == hashlib.sha256(bytes.fromhex(signature)).hexdigest()


def main(target: Path) -> None:
    key = secret_key()
    public_key = G2_to_signature(multiply(G2, key)).hex()
    lines = [
        HEADER.rstrip("\n"),
        "network: test",
        "scheme: bls-unchained-g1-rfc9380",
        f'secret_key_from: "{SECRET_SENTENCE.decode()}"',
        f"public_key: {public_key}",
        f"genesis: {GENESIS}",
        f"period: {PERIOD}",
        "rounds:",
    ]
    for round_number in range(1, ROUNDS + 1):
        signature = sign(key, round_number).hex()
        check(round_number, signature, public_key)
        lines.append(f'  {round_number}: "{signature}"')
    target.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"wrote rounds 1 to {ROUNDS} of the TEST beacon to {target}; public key {public_key}")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
