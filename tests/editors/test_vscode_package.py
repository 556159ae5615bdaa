"""The VS Code extension as a registry takes it: ``vsce package`` makes a
.vsix with no warning (neither vsce's nor the bundler's), and the manifest
has what the Marketplace and Open VSX show and require: publisher,
repository, license, a PNG icon of at least 128x128 pixels shipped in the
package, categories, the VS Code engine."""

from __future__ import annotations

import json
import re
import struct
import zipfile

from tests.support.vsix import EXTENSION, package


def test_vsce_packages_the_extension_without_warnings(tmp_path):
    out = tmp_path / "annoscore.vsix"
    result = package(out)
    said = result.stdout + result.stderr
    assert result.returncode == 0, said
    # vsce's warnings are " WARNING " lines; esbuild marks an output it finds too large with a sign.
    assert "WARNING" not in said and "\u26a0" not in said, said
    manifest = json.loads((EXTENSION / "package.json").read_text(encoding="utf-8"))
    assert re.fullmatch(r"[a-z0-9][a-z0-9-]*", manifest["publisher"])
    assert manifest["repository"]["type"] == "git" and manifest["repository"]["url"].startswith("https://")
    assert manifest["license"] == "Apache-2.0"
    assert set(manifest["categories"]) <= {"Programming Languages", "Linters", "Formatters", "Other",
                                           "Data Science", "Testing", "Education"} and manifest["categories"]
    assert re.fullmatch(r"\^1\.\d+\.0", manifest["engines"]["vscode"])
    with zipfile.ZipFile(out) as vsix:
        names = set(vsix.namelist())
        assert f"extension/{manifest['icon']}" in names and manifest["icon"].endswith(".png")
        icon = vsix.read(f"extension/{manifest['icon']}")
        vsixmanifest = vsix.read("extension.vsixmanifest").decode("utf-8")
    assert icon[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", icon[16:24])
    assert width >= 128 and height >= 128 and width == height
    assert f'Path="extension/{manifest["icon"]}"' in vsixmanifest  # the Marketplace's icon entry
    assert not any(name.endswith((".ts", ".map")) or "node_modules" in name for name in names)
