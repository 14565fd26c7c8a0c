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
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pyrage

from .core.issues import CampaignError
from .core.text import hide_secrets, holds_secret

SUFFIX = ".age"
KEY_VARIABLE = "CAMPAIGN_AGE_KEY"  # the campaign's identity, as CI's environment holds it
PUBLISHED_KEY = "campaign-key.txt"  # campaign/campaign-key.txt: the key, once the GM has published it
VIEW_DIR = ".view"  # a player's decrypted view of the campaign, never committed
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
        "paste the public key itself: the age1… line of an age key (preferred: it leaves no trace of who "
        "can read a file), or the line of ~/.ssh/id_ed25519.pub",
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
            "age-keygen and ask the GM to add its age1… line to your faction's recipients",
            code=2,
        ) from None


# -- files ---------------------------------------------------------------------------------------------


def encrypt(data: bytes, recipients: list[str]) -> bytes:
    """``data`` as an ASCII-armoured age file that any one of ``recipients`` can open."""
    if not recipients:
        raise CampaignError("nothing can be sealed without a recipient", "add the campaign's key")
    return bytes(pyrage.encrypt(data, [recipient(r) for r in recipients], armored=True))


class SealedError(CampaignError):
    """A sealed file that this identity cannot open."""


def decrypt(data: bytes, identities: list[Any], where: str = "") -> bytes:
    try:
        return bytes(pyrage.decrypt(data, identities))
    except pyrage.DecryptError:
        raise SealedError(
            f"{where or 'the file'} cannot be opened with this key",
            "use the key it was sealed to",
        ) from None


def decrypt_with_key(data: bytes, secret: str, where: str = "") -> bytes:
    return decrypt(data, [_x25519_identity(secret)], where)


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


# -- the dice salt -------------------------------------------------------------------------------------


def turn_salt(secret: str, campaign: str, turn: int) -> str:
    """The secret part of a turn's seed: nobody without the campaign key can compute it."""
    message = f"campaign-kit/dice-salt/{campaign}/{turn}".encode()
    return hmac.new(secret.encode(), message, hashlib.sha256).hexdigest()


def salt_commitment(salt: str) -> str:
    """What is published when a turn opens: the salt's hash, checked once the salt is revealed."""
    return hashlib.sha256(f"campaign-kit/salt-commitment/{salt}".encode()).hexdigest()
