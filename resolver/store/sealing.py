"""Secrets of a campaign: age encryption of sealed files, the campaign key, and the dice salt.

A sealed campaign keeps its secrets in the public repository as age files (``NAME.age``, ASCII
armoured). The campaign's own key is an age X25519 identity held by CI as a repository secret
(``CAMPAIGN_AGE_KEY``); its public half is in ``campaign/campaign.yaml``. A player reads what is
encrypted to them with their own identity: an age key file, or the SSH key they already use on GitHub
(age accepts ``ssh-ed25519`` and ``ssh-rsa`` recipients). Age keys are preferred: age writes a tag of
an SSH key into every file sealed to it, so who can open which file shows; an X25519 stanza names no one.

No secret key is ever repeated in what the kit prints (``core.text.hide_secrets``), and the key in the
environment is taken out of it while a command runs (``key_kept_from_children``), so no git process
inherits it.

The same campaign key, in any campaign, open or sealed, makes the dice unpredictable: each turn's seed
gains a salt, ``HMAC(key, campaign id + turn)``, whose hash is committed when the turn opens and which
is revealed when it resolves (see ``turn_salt`` and ``salt_commitment``).
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import os
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pyrage

from ..core.issues import CampaignError
from ..core.text import hide_secrets, holds_secret
from ..core.yamlsafe import MAX_BYTES

SUFFIX = ".age"
KEY_VARIABLE = "CAMPAIGN_AGE_KEY"  # the campaign's identity, as CI's environment holds it
PUBLISHED_KEY = "campaign-key.txt"  # campaign/campaign-key.txt: the key, once the GM has published it
VIEW_DIR = ".view"  # a player's decrypted view of the campaign, never committed
DEMO_KEY = "campaign-key.txt"  # a sealed demo's key: in the demo folder, outside campaign/
# What git must never take in a sealed campaign, said in files that are committed with the campaign, so
# that every clone ignores them: plain order drafts (orders/.gitignore; templates live in
# orders/templates/ and sealed files end in .age, so both stay tracked) and the decrypted view, whose
# folder ignores itself (.view/.gitignore holding "*").
IGNORE_FILE = ".gitignore"
ORDERS_IGNORES = ("/*.yaml", "/*.yml")
VIEW_IGNORES = ("*",)
ROOT_IGNORES = (f"/{VIEW_DIR}/", "/orders/*.yaml", "/orders/*.yml")  # the GM's own clone, as before
MAGIC = b"age-encryption.org/v1"
ARMOR_BEGIN = b"-----BEGIN AGE ENCRYPTED FILE-----"
ARMOR_END = b"-----END AGE ENCRYPTED FILE-----"
SECRET_PREFIX = "AGE-SECRET-KEY-1"
RECIPIENT_TYPES = ("X25519", "ssh-ed25519", "ssh-rsa")  # the stanzas the campaign's recipients make

_override: list[str] = []  # a key given on the command line (--key-file) for this process
_taken: list[str] = []  # the key taken out of the environment by key_kept_from_children


# -- keys ----------------------------------------------------------------------------------------------


def new_key() -> tuple[str, str]:
    """A fresh campaign key pair: the secret identity and its public recipient."""
    identity = pyrage.x25519.Identity.generate()
    return str(identity), str(identity.to_public())


def demo_key(seed: int, name: str) -> str:
    """A demo's key: it follows from the demo's seed, so that a sealed demo plays the same game each time.
    Anyone who knows the seed knows it: a demo's key never seals a real campaign."""
    material = hashlib.sha256(f"campaign-kit/demo-key/{seed}/{name}".encode()).digest()
    return _bech32("age-secret-key-", material).upper()


# bech32 (BIP 173), the text form of age keys: only to write a demo's key from its seed.
_BECH32 = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"


def _bech32(prefix: str, data: bytes) -> str:
    groups, accumulator, bits = [], 0, 0
    for byte in data:  # 8-bit bytes as 5-bit groups
        accumulator, bits = (accumulator << 8) | byte, bits + 8
        while bits >= 5:
            bits -= 5
            groups.append((accumulator >> bits) & 31)
    if bits:
        groups.append((accumulator << (5 - bits)) & 31)
    expanded = [ord(c) >> 5 for c in prefix] + [0] + [ord(c) & 31 for c in prefix]
    check = _bech32_polymod([*expanded, *groups, 0, 0, 0, 0, 0, 0]) ^ 1
    groups += [(check >> 5 * (5 - i)) & 31 for i in range(6)]
    return prefix + "1" + "".join(_BECH32[g] for g in groups)


def _bech32_polymod(values: list[int]) -> int:
    generator = (0x3B6A57B2, 0x26508E6D, 0x1EA119FA, 0x3D4233DD, 0x2A1462B3)
    checksum = 1
    for value in values:
        top = checksum >> 25
        checksum = (checksum & 0x1FFFFFF) << 5 ^ value
        for i, g in enumerate(generator):
            checksum ^= g if (top >> i) & 1 else 0
    return checksum


def public_of(secret: str) -> str:
    return str(_x25519_identity(secret).to_public())


def _x25519_identity(secret: str) -> Any:
    try:
        return pyrage.x25519.Identity.from_str(secret.strip())
    except pyrage.IdentityError:
        raise CampaignError(
            "the campaign key is not an age secret key (AGE-SECRET-KEY-1…)",
            f"give the key the GM stored, in {KEY_VARIABLE} or with --key-file",
            code=2,
        ) from None


def read_key_text(text: str) -> str:
    """The secret key in a key file: its one AGE-SECRET-KEY line; comment lines are skipped."""
    for line in text.splitlines():
        if line.strip().startswith(SECRET_PREFIX):
            return line.strip()
    raise CampaignError(
        "no age secret key (a line starting AGE-SECRET-KEY-1) in the key file",
        "point --key-file at the file campaign new --key-file wrote",
        code=2,
    )


def use_key_file(path: Path) -> None:
    """Use the key in ``path`` for the rest of this process (the CLI's --key-file)."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise CampaignError(f"cannot read the key file {path}: {error.strerror}", code=2) from None
    _override[:] = [read_key_text(text)]


def forget_key() -> None:
    _override.clear()


@contextmanager
def key_kept_from_children() -> Iterator[None]:
    """Take the campaign key out of the environment while a command runs, so that no process it
    starts (git above all, which runs hooks and helpers) inherits the key; ``campaign_key`` reads it
    from here meanwhile. Nested uses are harmless: the outer one has already taken it. The variable is
    put back when the command ends, for a caller in the same process (a test, a GM's script): the CLI
    exits then, and starts nothing more."""
    value = os.environ.pop(KEY_VARIABLE, None)
    if value is None:
        yield
        return
    _taken.append(value)
    try:
        yield
    finally:
        _taken.pop()
        os.environ[KEY_VARIABLE] = value


def campaign_key(campaign_dir: Path | None = None) -> str | None:
    """The campaign's secret key, if this process has it: given with --key-file, in the environment
    (``CAMPAIGN_AGE_KEY``, as CI holds it; see ``key_kept_from_children``), or published in the
    campaign after the game."""
    if _override:
        return _override[0]
    value = (_taken[-1] if _taken else os.environ.get(KEY_VARIABLE, "")).strip()
    if value:
        return read_key_text(value)
    if campaign_dir is not None and (campaign_dir / PUBLISHED_KEY).is_file():
        return read_key_text((campaign_dir / PUBLISHED_KEY).read_text(encoding="utf-8"))
    return None


def recipient(text: str, where: str = "") -> Any:
    """An age recipient: an ``age1…`` key or an SSH public key (ssh-ed25519, ssh-rsa)."""
    text = str(text).strip()
    try:
        if text.startswith("age1"):
            return pyrage.x25519.Recipient.from_str(text)
        if text.startswith(("ssh-ed25519 ", "ssh-rsa ")):
            return pyrage.ssh.Recipient.from_str(text)
    except pyrage.RecipientError:
        pass
    raise recipient_error(text, where)


def recipient_error(text: str, where: str = "") -> CampaignError:
    """Why ``text`` is no recipient. What was pasted is quoted only in part, and never when it is a
    secret key: that is named as such, since its owner must replace it."""
    where = where or "recipient"
    if holds_secret(text):
        return CampaignError(
            f"{where}: this is a secret key, not a public one; a secret key must never be shared, and this "
            "one is no longer secret once it is pushed",
            "make a new age key and paste only its public line, age1…; never use the pasted key again",
        )
    return CampaignError(
        f"{where}: '{hide_secrets(text[:40])}' is not an age recipient (age1…) or an SSH public key "
        "(ssh-ed25519 or ssh-rsa)",
        "paste the public key itself: the age1… line campaign keygen prints (preferred: it leaves no "
        "trace of who can read a file), or the line of ~/.ssh/id_ed25519.pub",
    )


def load_identity(path: Path) -> Any:
    """A player's identity from a file: an age key file, or an SSH private key without passphrase."""
    try:
        raw = path.expanduser().read_bytes()
    except OSError as error:
        raise CampaignError(
            f"cannot read the identity {path}: {error.strerror}",
            "pass your age key file or SSH private key with --identity PATH",
            code=2,
        ) from None
    text = raw.decode("utf-8", "replace")
    if SECRET_PREFIX in text:
        return _x25519_identity(read_key_text(text))
    try:
        return pyrage.ssh.Identity.from_buffer(raw)
    except pyrage.IdentityError:
        raise CampaignError(
            f"{path} is neither an age key file nor an SSH private key this tool can read",
            "an SSH key protected by a passphrase cannot be used here: make an age key with "
            "campaign keygen and ask the GM to add its age1… line to your faction's recipients",
            code=2,
        ) from None


# -- files ---------------------------------------------------------------------------------------------

# age hides what a file says but not how long it is, and git keeps every version of every file. So every
# sealed file is padded before it is encrypted, and its ciphertext is then brought to a length that says
# nothing of what it holds:
# - an order file, sealed by a player alone, to one fixed size that holds any file under the order cap;
# - the files of one kind in a turn (every faction's view, every report), to one common size;
# - any other file, to a Padmé size (at most 12% more), which leaks at most a few bits of its length.
PAD_MAGIC = b"campaign-kit/padded/1 "
ORDER_FILE_SIZE = MAX_BYTES + 64  # the one size of a sealed order file's text: any file under the order cap
# age adds a "grease" stanza of random length (up to about 200 bytes) to every header, and the header
# lists each recipient. The armoured text is followed by as many line breaks as make it the target
# length, which age readers accept; the target leaves room for the largest grease.
GREASE_ROOM = 320


def padme(length: int) -> int:
    """The Padmé size for ``length`` bytes: the length rounded up so that only the top bits of its
    exponent's size vary (Nikitin et al., 2019), which keeps the overhead under 12%."""
    if length < 2:
        return length
    exponent = length.bit_length() - 1
    size_bits = exponent.bit_length()
    mask = (1 << (exponent - size_bits)) - 1
    return (length + mask) & ~mask


def _framed_length(data: bytes) -> int:
    return len(PAD_MAGIC) + len(str(len(data))) + 1 + len(data)


def pad(data: bytes, size: int | None = None) -> bytes:
    """``data`` with its length and zero bytes up to ``size`` (by default its Padmé size)."""
    framed = PAD_MAGIC + str(len(data)).encode() + b"\n" + data
    target = padme(len(framed)) if size is None else size
    if len(framed) > target:
        raise ValueError(f"{len(data)} bytes do not fit in a padded size of {target}")
    return framed + bytes(target - len(framed))


def unpad(data: bytes) -> bytes:
    """The text inside a padded plain text; a file sealed without padding is given back as it is."""
    if not data.startswith(PAD_MAGIC):
        return data
    head, _, rest = data.partition(b"\n")
    length = int(head[len(PAD_MAGIC) :])
    if any(rest[length:]):
        raise ValueError("the padding of a sealed file is damaged")
    return rest[:length]


def encrypt(data: bytes, recipients: list[str], size: int | None = None) -> bytes:
    """``data`` as an ASCII-armoured age file that any one of ``recipients`` can open, padded to
    ``size`` (a Padmé size by default) and brought to the length its size and recipients fix."""
    return encrypt_alike({"": data}, {"": recipients}, size)[""]


def encrypt_alike(
    texts: Mapping[str, bytes], recipients: Mapping[str, list[str]], size: int | None = None
) -> dict[str, bytes]:
    """Files of one kind (every faction's view of a turn), each for its own recipients, all padded to one
    size (``size``, or the Padmé size of the longest) and all of one length, whatever they hold."""
    if not texts:
        return {}
    for name in texts:
        if not recipients[name]:
            raise CampaignError("nothing can be sealed without a recipient", "add the campaign's key")
    common = size if size is not None else max(padme(_framed_length(text)) for text in texts.values())
    sealed = {name: _encrypt_padded(pad(text, common), recipients[name]) for name, text in texts.items()}
    target = max(_target_length(armoured) for armoured in sealed.values())
    return {name: armoured + b"\n" * (target - len(armoured)) for name, armoured in sealed.items()}


def _encrypt_padded(padded: bytes, recipients: list[str]) -> bytes:
    parsed = [recipient(r) for r in recipients]
    while True:  # a grease stanza beyond the room left for it is so rare that trying again costs nothing
        armoured = bytes(pyrage.encrypt(padded, parsed, armored=True))
        if _grease_length(dearmor(armoured)) <= GREASE_ROOM:
            return armoured


def _grease_length(binary: bytes) -> int:
    """How many bytes of an age header are grease: stanzas of no recipient type."""
    header = binary[: binary.index(b"\n---") + 1]
    total = 0
    for stanza in header.split(b"\n-> ")[1:]:
        if stanza.split(b" ", 1)[0].split(b"\n", 1)[0].decode("ascii", "replace") not in RECIPIENT_TYPES:
            total += len(stanza) + 4  # the stanza's lines and the "\n-> " before it
    return total


def _target_length(armoured: bytes) -> int:
    """The length an armoured file is padded to: its own length with the grease swapped for the room
    left for it, so that it depends only on the payload's size and the recipients."""
    binary = dearmor(armoured)
    return armoured_length(len(binary) - _grease_length(binary) + GREASE_ROOM)


def is_padded_order_file(armoured: bytes) -> bool:
    """Whether a sealed file has the one length of a sealed order file for its recipients, as
    ``campaign seal`` makes it: checked without any key, since a file of any other length tells
    everyone how much its faction wrote."""
    try:
        binary = dearmor(armoured)
        header_end = binary.index(b"\n---")
        header_end = binary.index(b"\n", header_end + 1) + 1
    except ValueError:
        return False
    chunks = -(-ORDER_FILE_SIZE // 65536)
    payload = 16 + ORDER_FILE_SIZE + 16 * chunks  # the nonce, the padded text, a tag per 64 KiB chunk
    return len(binary) - header_end == payload and len(armoured) == _target_length(armoured)


def armoured_length(binary_length: int) -> int:
    """The length of age's ASCII armour around ``binary_length`` bytes: base64 in lines of 64."""
    characters = 4 * -(-binary_length // 3)
    lines = -(-characters // 64)
    return len(ARMOR_BEGIN) + 1 + characters + lines + len(ARMOR_END) + 1


class SealedError(CampaignError):
    """A sealed file that this identity cannot open."""


def decrypt(data: bytes, identities: list[Any], where: str = "") -> bytes:
    return decrypt_sized(data, identities, where)[0]


def decrypt_sized(data: bytes, identities: list[Any], where: str = "") -> tuple[bytes, int]:
    """The text inside a sealed file, and the size it was padded to (to seal a copy of it alike)."""
    try:
        padded = bytes(pyrage.decrypt(data, identities))
        return unpad(padded), len(padded)
    except (pyrage.DecryptError, ValueError):
        raise SealedError(
            f"{where or 'the file'} cannot be opened with this key",
            "use the key it was sealed to",
        ) from None


def decrypt_with_key(data: bytes, secret: str, where: str = "") -> bytes:
    return decrypt(data, [_x25519_identity(secret)], where)


def decrypt_with_keys(data: bytes, secrets: list[str], where: str = "") -> bytes:
    return decrypt(data, identities_of(secrets), where)


def identities_of(secrets: list[str]) -> list[Any]:
    return [_x25519_identity(secret) for secret in secrets]


# -- the header, read without any key ------------------------------------------------------------------


@dataclass(frozen=True)
class Stanza:
    kind: str  # X25519, ssh-ed25519, ssh-rsa, or a random "grease" name that age adds
    args: tuple[str, ...]


def dearmor(data: bytes) -> bytes:
    """The binary age file inside ASCII armour (or ``data`` itself when it is not armoured)."""
    text = data.strip()
    if not text.startswith(ARMOR_BEGIN):
        return data
    if not text.endswith(ARMOR_END):
        raise ValueError("the armour has no END line")
    body = b"".join(text[len(ARMOR_BEGIN) : -len(ARMOR_END)].split())
    try:
        return base64.b64decode(body, validate=True)
    except (binascii.Error, ValueError):
        raise ValueError("the armour is not valid base64") from None


def read_header(data: bytes) -> list[Stanza]:
    """The recipient stanzas of an age file, without decrypting anything. Raises ValueError."""
    binary = dearmor(data)
    lines = binary.split(b"\n")
    if not lines or lines[0] != MAGIC:
        raise ValueError("it is not an age file (the first line is not age-encryption.org/v1)")
    stanzas = []
    index = 1
    while index < len(lines):
        line = lines[index]
        if line.startswith(b"---"):
            return stanzas
        if not line.startswith(b"-> "):
            raise ValueError("its header is damaged")
        words = line[3:].decode("ascii", "replace").split(" ")
        stanzas.append(Stanza(words[0], tuple(words[1:])))
        index += 1
        while index < len(lines) and len(lines[index]) == 64:  # body lines are full until the last
            index += 1
        index += 1
    raise ValueError("its header has no end (the --- line)")


def ssh_tag(public_key: str) -> str:
    """The tag an ssh-ed25519 or ssh-rsa stanza carries: the start of the key's SHA-256, base64."""
    blob = base64.b64decode(public_key.split()[1])
    return base64.b64encode(hashlib.sha256(blob).digest()[:4]).decode().rstrip("=")


# -- secrets derived from the campaign key ---------------------------------------------------------------
#
# Everything secret that the engine derives is an HMAC of the campaign key, never a function of public
# inputs alone: a player holds the public seed, the world and the players' file, and the derivation must
# give them nothing to start a search from.


def derive(secret: str, *parts: object) -> bytes:
    """A value only the key's holder can compute, one for each distinct ``parts``."""
    message = "/".join(["campaign-kit", *(str(p) for p in parts)]).encode()
    return hmac.new(secret.encode(), message, hashlib.sha256).digest()


def setup_seed(secret: str, campaign: str) -> int:
    """The seed of a sealed campaign's hidden starting positions (and of late joiners'): the world and
    the names may come from the public seed, but nothing a faction keeps to itself."""
    return int.from_bytes(derive(secret, "setup-seed", campaign)[:8], "big")


def commitment_key(secret: str, campaign: str, turn: int, scope: str) -> str:
    """The key of a turn's commitments to secret texts: one per faction (handed to that faction with its
    receipt, so it can check its own) and one, scope ``*``, for what only the campaign sees."""
    return derive(secret, "commitment", campaign, turn, scope).hex()


def commit(key_hex: str, data: bytes) -> str:
    """A commitment to ``data`` under a secret key: without the key, a guess of ``data`` cannot be
    checked against it, as a bare digest of a guessable text could be."""
    return hmac.new(bytes.fromhex(key_hex), data, hashlib.sha256).hexdigest()


# -- the dice salt -------------------------------------------------------------------------------------


def turn_salt(secret: str, campaign: str, turn: int) -> str:
    """The key holder's part of a turn's seed, committed when the turn opens and revealed when it resolves.
    Without a beacon it is the whole salt; with one it is mixed with the beacon's round (``beacon_salt``)."""
    message = f"campaign-kit/dice-salt/{campaign}/{turn}".encode()
    return hmac.new(secret.encode(), message, hashlib.sha256).hexdigest()


def beacon_salt(dice_secret: str, randomness: str) -> str:
    """A turn's salt when a public beacon round takes part: neither the key's holder, who knows
    ``dice_secret`` early, nor anyone else, before the round is published, can compute it."""
    message = f"campaign-kit/beacon-salt/{randomness}".encode()
    return hmac.new(bytes.fromhex(dice_secret), message, hashlib.sha256).hexdigest()


def salt_commitment(salt: str) -> str:
    """What is published when a turn opens: the hash of the key holder's part of the salt, a 256-bit secret
    (no guess can be checked against it), checked once that part is revealed."""
    return hashlib.sha256(f"campaign-kit/salt-commitment/{salt}".encode()).hexdigest()


# -- commitments ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Commitments:
    """How one turn's archive commits to its texts. An open campaign publishes everything, so a plain
    SHA-256 serves; a sealed one (``secret`` given) commits under keys only the campaign key derives, one
    per faction and one (scope ``*``) for the campaign's own texts."""

    secret: str | None = None
    campaign: str = ""
    turn: int = 0

    @property
    def keyed(self) -> bool:
        return self.secret is not None

    def key(self, scope: str) -> str:
        if self.secret is None:
            raise ValueError("an open campaign's commitments have no key")
        return commitment_key(self.secret, self.campaign, self.turn, scope)

    def __call__(self, scope: str, data: bytes) -> str:
        if self.secret is None:
            return hashlib.sha256(data).hexdigest()
        return commit(self.key(scope), data)
