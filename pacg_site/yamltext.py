"""YAML read with libyaml's parser where PyYAML has it: the same safe loading, several times
faster than the pure-Python parser (the rules' concept table took over a second to read)."""

from __future__ import annotations

from typing import Any

import yaml

SafeLoader: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def load(text: str) -> Any:
    return yaml.load(text, Loader=SafeLoader)  # noqa: S506 - a safe loader


def compose(text: str) -> yaml.Node | None:
    """The document's node tree, which knows each node's line."""
    return yaml.compose(text, Loader=SafeLoader)  # noqa: S506 - a safe loader
