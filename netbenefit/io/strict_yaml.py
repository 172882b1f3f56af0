"""The one YAML loader of netbenefit: safe, duplicate keys refused, the document bounded.

Every YAML file netbenefit reads goes through it: scenario files and actual results
(:func:`netbenefit.model.scenario.read_yaml`, which words its errors as a ScenarioError) and the data
files of the package, the parameters and the plausible ranges
(:func:`netbenefit.law.parameters.parse_data_yaml`, which words a name given twice as a RuntimeError).

The loader is PyYAML's SafeLoader (no Python objects) whose mappings refuse a key given twice and
whose composer refuses a document nested more than :data:`MAX_YAML_DEPTH` levels deep or whose
aliases would expand to more than :data:`MAX_YAML_NODES` values. Where PyYAML has libyaml, its
scanner and parser (in C) give the events to the same Python composer and constructor, so the
limits are those of the pure-Python loader.
"""

from __future__ import annotations

from typing import Any

import yaml

#: A YAML document whose aliases would expand to more nodes than this is refused ("billion laughs").
MAX_YAML_NODES = 200_000
#: ... or whose collections nest deeper than this (a v1 file needs 6 levels).
MAX_YAML_DEPTH = 50  # not a statutory number: a guard against stack exhaustion


class DuplicateKeyError(yaml.YAMLError):
    """A key given twice in one mapping: ``key`` (the first one given again) at ``line``;
    ``names`` lists every key of that mapping given more than once, as text, sorted."""

    def __init__(self, key: Any, line: int, names: tuple[str, ...]) -> None:
        super().__init__(f"duplicate key {key!r} (line {line})")
        self.key, self.line, self.names = key, line, names


class LimitError(yaml.YAMLError):
    """A document nested too deeply, or whose aliases expand too far or refer to themselves."""


class StrictSafeLoader(yaml.SafeLoader):
    """PyYAML's SafeLoader (no Python objects) that also rejects duplicate mapping keys."""


def _construct_unique_mapping(loader: StrictSafeLoader, node: yaml.MappingNode, deep: bool = False):
    """A mapping whose own keys are unique. Keys brought in by a merge key (``<<: *base``) may be
    given again: as YAML 1.1 defines merging, the mapping's own key overrides the merged one, and
    of several merged mappings the first one that holds a key gives its value."""
    seen: set[Any] = set()
    keys: list[Any] = []
    for position, (key_node, _) in enumerate(node.value):  # the mapping's own keys, before the merged ones
        key = _own_key(loader, key_node)
        keys.append(key)
        try:
            duplicate = key in seen
            seen.add(key)
        except TypeError:  # an unhashable key; the constructor below reports it
            continue
        if duplicate:
            keys += _remaining_keys(loader, node.value[position + 1 :])
            names = tuple(sorted({str(name) for name in keys if keys.count(name) > 1}))
            raise DuplicateKeyError(key, key_node.start_mark.line + 1, names)
    loader.flatten_mapping(node)  # merged keys first, so that the mapping's own keys override them
    return yaml.SafeLoader.construct_mapping(loader, node, deep=deep)


def _own_key(loader: StrictSafeLoader, key_node: yaml.Node) -> Any:
    if key_node.tag == "tag:yaml.org,2002:merge":
        return "<<"
    return loader.construct_object(key_node, deep=True)


def _remaining_keys(loader: StrictSafeLoader, pairs: list) -> list[Any]:
    """The keys after the first one given again, as far as they can be read: the error names
    every key of the mapping given more than once."""
    keys = []
    for key_node, _ in pairs:
        try:
            keys.append(_own_key(loader, key_node))
        except Exception:  # a key that cannot be read is no duplicate; the duplicate is reported
            continue
    return keys


StrictSafeLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_unique_mapping)


def _compose_bounded_document(loader: StrictSafeLoader) -> yaml.Node:
    """Compose the document, then refuse one whose aliases expand too far or refer to themselves.
    A document without anchors has no alias: it is a tree, whose values are the nodes composed."""
    loader._nodes = 0
    node = yaml.composer.Composer.compose_document(loader)
    if loader._anchored:
        _check_alias_expansion(node)
    elif loader._nodes > MAX_YAML_NODES:
        raise LimitError(f"aliases expand to more than {MAX_YAML_NODES:,} values")
    return node


def _compose_shallow_node(loader: StrictSafeLoader, parent: Any, index: Any) -> yaml.Node:
    """Compose one node, refusing nesting deeper than MAX_YAML_DEPTH before it is all scanned."""
    depth = getattr(loader, "_depth", 0) + 1
    if depth > MAX_YAML_DEPTH:
        raise LimitError(f"nested more than {MAX_YAML_DEPTH} levels deep")
    loader._depth = depth
    loader._nodes += 1
    try:
        return yaml.composer.Composer.compose_node(loader, parent, index)
    finally:
        loader._depth = depth - 1
        if depth == 1:  # the document's root, composed: whether it named an anchor (an alias needs one)
            loader._anchored = bool(loader.anchors)


StrictSafeLoader.compose_document = _compose_bounded_document
StrictSafeLoader.compose_node = _compose_shallow_node

if getattr(yaml, "__with_libyaml__", False):  # PyYAML built with libyaml: the C parser gives the events

    class StrictCSafeLoader(
        yaml.composer.Composer, yaml.cyaml.CParser, yaml.constructor.SafeConstructor, yaml.resolver.Resolver
    ):
        """:class:`StrictSafeLoader` with libyaml's scanner and parser (in C) under the same Python
        composer, so the duplicate-key, depth and alias limits are those of the Python loader."""

        def __init__(self, stream):
            yaml.cyaml.CParser.__init__(self, stream)
            yaml.composer.Composer.__init__(self)
            yaml.constructor.SafeConstructor.__init__(self)
            yaml.resolver.Resolver.__init__(self)

        compose_document = _compose_bounded_document
        compose_node = _compose_shallow_node

    StrictCSafeLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_unique_mapping)
    #: The loader: the C one where PyYAML has libyaml, else the pure-Python one.
    LOADER: type = StrictCSafeLoader
else:  # pragma: no cover - PyYAML without libyaml
    LOADER = StrictSafeLoader


def _check_alias_expansion(root: yaml.Node) -> None:
    """Count the nodes of the document with every alias expanded, without expanding them."""
    sizes: dict[int, int] = {}
    open_nodes: set[int] = set()
    stack: list[tuple[yaml.Node, bool]] = [(root, False)]
    while stack:
        node, closing = stack.pop()
        children = _yaml_children(node)
        if closing:
            open_nodes.discard(id(node))
            sizes[id(node)] = 1 + sum(sizes[id(child)] for child in children)
            if sizes[id(node)] > MAX_YAML_NODES:
                raise LimitError(f"aliases expand to more than {MAX_YAML_NODES:,} values")
        elif id(node) in open_nodes:
            raise LimitError("an alias refers to a collection that contains it")
        elif id(node) not in sizes:
            open_nodes.add(id(node))
            stack.append((node, True))
            stack.extend((child, False) for child in children)


def _yaml_children(node: yaml.Node) -> list[yaml.Node]:
    if isinstance(node, yaml.SequenceNode):
        return list(node.value)
    if isinstance(node, yaml.MappingNode):
        return [child for pair in node.value for child in pair]
    return []


def load(text: str, *, python_messages: bool = True) -> Any:
    """The document of ``text``, read by :data:`LOADER`.

    Raises :class:`DuplicateKeyError`, :class:`LimitError` or another ``yaml.YAMLError`` (and the
    ValueError, TypeError or OverflowError of a tagged value that does not fit its tag). With
    ``python_messages``, a document libyaml refuses is read again by the pure-Python loader, whose
    message (and nesting limit) is the one raised; without it, libyaml's own error is raised.
    """
    try:
        return yaml.load(text, Loader=LOADER)  # noqa: S506 - a safe loader (no Python objects)
    except (DuplicateKeyError, LimitError):
        raise
    except yaml.YAMLError:
        if LOADER is StrictSafeLoader or not python_messages:
            raise
        return yaml.load(text, Loader=StrictSafeLoader)  # noqa: S506 - a SafeLoader subclass
