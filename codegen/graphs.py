"""Orders over name graphs (name -> the names it depends on), without recursion: a chain of
any length costs the same per link as a chain of two."""

from __future__ import annotations

from collections.abc import Callable, Iterable


def dependency_order(
    graph: dict[str, tuple[str, ...]], nodes: Iterable[str], follow: Callable[[str, str], bool]
) -> list[str]:
    """`nodes` with each one after the nodes it depends on (the edges `follow(node, dep)`
    admits), in the given order otherwise; iterative, so a chain of any length is fine."""
    wanted = dict.fromkeys(nodes)
    done: set[str] = set()
    out: list[str] = []
    for root in wanted:
        if root in done:
            continue
        done.add(root)
        stack = [(root, iter(graph.get(root, ())))]
        while stack:
            name, deps = stack[-1]
            for dep in deps:
                if dep in wanted and dep not in done and follow(name, dep):
                    done.add(dep)
                    stack.append((dep, iter(graph.get(dep, ()))))
                    break
            else:
                stack.pop()
                out.append(name)
    return out
