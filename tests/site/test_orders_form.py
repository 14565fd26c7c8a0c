"""The "Send orders" form's parts that need no browser: its vendored libraries are the locked packages'
files, its links to GitHub, and which pages carry it (the browser test, tests/browser/test_orders_form.py,
fills it)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

from resolver.publish.pages import fork_link, send_orders_links, upload_link

from .demo import DemoSite

ROOT = Path(__file__).resolve().parents[2]
FORM_TOOLS = ROOT / "tools/form"
VENDORED = ROOT / "templates/site/assets/vendor/form"


def vendor_script() -> dict[str, Any]:
    """tools/form/vendor's names: FILES (each served name and where npm puts it), BUNDLES (each served
    name and its esbuild entry) and bundle()."""
    namespace: dict[str, Any] = {"__name__": "vendor", "__file__": str(FORM_TOOLS / "vendor")}
    exec(compile((FORM_TOOLS / "vendor").read_text(encoding="utf-8"), "vendor", "exec"), namespace)
    return namespace


def load_vendor_script() -> dict[str, str]:
    """tools/form/vendor's table of files: the served name and where npm puts it."""
    return dict(vendor_script()["FILES"])


def test_the_vendored_libraries_are_the_locked_packages_files() -> None:
    """The committed copies (which the site serves, so that CI needs no Node.js) are byte for byte the
    files of the versions tools/form/package-lock.json pins, as `make install` put them in node_modules."""
    script = vendor_script()
    files, bundles = dict(script["FILES"]), dict(script["BUNDLES"])
    lock = json.loads((FORM_TOOLS / "package-lock.json").read_text(encoding="utf-8"))
    wanted = json.loads((FORM_TOOLS / "package.json").read_text(encoding="utf-8"))["devDependencies"]
    for package, version in wanted.items():
        assert lock["packages"][f"node_modules/{package}"]["version"] == version
        installed = json.loads((FORM_TOOLS / "node_modules" / package / "package.json").read_text())
        assert installed["version"] == version, f"run make install: {package} {installed['version']}"
    assert sorted(p.name for p in VENDORED.iterdir()) == sorted([*files, *bundles])
    for name, source in files.items():
        copied = (VENDORED / name).read_bytes()
        assert copied == (FORM_TOOLS / "node_modules" / source).read_bytes(), f"run tools/form/vendor: {name}"
    # A bundle (age.js: age-encryption and the primitives it is built on) is made again from the locked
    # packages by the pinned esbuild, and must be the same bytes.
    for name, entry in bundles.items():
        assert (VENDORED / name).read_bytes() == script["bundle"](entry), f"run tools/form/vendor: {name}"


def test_the_vendor_script_says_what_is_missing(tmp_path: Path) -> None:
    script = tmp_path / "tools/form/vendor"
    script.parent.mkdir(parents=True)
    script.write_bytes((FORM_TOOLS / "vendor").read_bytes())
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, check=False)
    assert done.returncode == 1 and "run `make install` first" in done.stderr
    assert not (tmp_path / "templates").exists()


def test_the_links_go_to_github_only() -> None:
    links = send_orders_links({"repository": "https://github.com/someone/a-campaign/"})
    assert links == {
        "new_file": "https://github.com/someone/a-campaign/new/main",
        "issue": "https://github.com/someone/a-campaign/issues/new?template=orders.yml",
    }
    # Another host has neither GitHub's new-file page nor its issue forms; nothing unsafe passes either.
    for repository in ("https://gitlab.com/a/b", "javascript:alert(1)", "https://github.com/a", ""):
        assert send_orders_links({"repository": repository}) == {"new_file": "", "issue": ""}
        assert upload_link({"repository": repository}) == fork_link({"repository": repository}) == ""


def test_a_sealed_campaigns_form_sends_to_the_upload_page_or_a_fork() -> None:
    config = {"repository": "https://github.com/someone/a-campaign"}
    assert upload_link(config) == "https://github.com/someone/a-campaign/upload/main/orders"
    assert fork_link(config) == "https://github.com/someone/a-campaign/fork"


def test_each_players_page_carries_the_form_and_what_it_loads(site: DemoSite) -> None:
    """The shared demo names no repository: the form is there all the same (it checks the orders and shows
    the file), with no GitHub link; every file it loads is in the built site."""
    public = site.public
    pages = sorted((public / "factions").glob("*/index.html"))
    assert pages
    for page in pages:
        html = page.read_text(encoding="utf-8")
        faction = page.parent.name
        assert f'data-faction="{faction}"' in html
        assert 'data-new-file=""' in html and 'data-issue=""' in html
        for found in re.findall(r'(?:data-schema|data-template|src)="(\.\./\.\./[^"]+)"', html):
            assert (page.parent / found).resolve().is_file(), f"{page}: {found}"
        assert f'data-template="../../play/templates/{faction}.yaml"' in html
        assert '<script src="../../assets/campaign/orders-form.js"></script>' in html
        assert "age.js" not in html and 'data-sealed="true"' not in html
    # age, which seals a sealed campaign's orders in the browser, is not served where nothing is sealed.
    assert not (public / "assets/campaign/vendor/form/age.js").exists()
    assert (public / "assets/campaign/vendor/form/jsoneditor.js").is_file()
