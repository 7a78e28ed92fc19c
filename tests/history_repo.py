"""A tiny git repository whose history has one commit of every kind the history benchmark
keeps or skips, built in a temporary folder (shared by the history and CLI tests)."""

from __future__ import annotations

import os
from pathlib import Path

from graphrag_code.runtime.git import git

INVENTORY = '''"""Stock levels per SKU."""


def restock_item(stock, sku, quantity):
    """Add quantity units of sku to the stock."""
    stock[sku] = stock.get(sku, 0) + quantity
    return stock[sku]


def reserve_item(stock, sku, quantity):
    """Take quantity units of sku out of the stock for an order."""
    stock[sku] -= quantity
    return stock[sku]
'''

BILLING = '''"""Invoices."""


def invoice_total(lines):
    """Sum of price times quantity over the invoice lines."""
    return sum(price * quantity for price, quantity in lines)


def apply_discount(total, percent):
    return total * (100 - percent) / 100
'''

SHIPPING = '''"""Parcels."""


def shipping_label(address):
    """The text printed on a parcel."""
    return address.upper()
'''

KEPT_AT_PARENT = {
    "Reject negative quantities in restock_item": ("store/inventory.py",),
    "Round invoice_total to whole cents": ("store/billing.py",),
    "Add an express option to shipping_label": ("store/shipping.py",),
}
"""Subject -> answer files of the commits that make questions at each commit's parent."""

SKIPPED_AT_PARENT = {
    "Add inventory, billing and shipping modules": "root commit (no parent to search)",
    "Bump version to 0.2.0": "release or version bump",
    "Reformat billing with black": "formatting, lint or typo fix",
    "Tidy up the billing module layout": "whitespace-only diff",
    "Merge branch 'feature'": "merge",
    'Revert "Add an express option to shipping_label"': "revert",
    "Document the storage layout in the README": "no Python file changed",
    "Add twelve generated fixture modules at once": "too many files",
    "Add a returns module for refunds": "only creates files (none existed before)",
    "Fix tests": "subject too short",
}


class HistoryRepo:
    """Writes files and commits them with fixed authors and increasing dates."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._tick = 0
        root.mkdir(parents=True, exist_ok=True)
        self.git("init", "-q", "-b", "main")

    def git(self, *args: str) -> str:
        self._tick += 1
        date = f"2024-01-01T00:{self._tick // 60:02d}:{self._tick % 60:02d}+00:00"
        env = {
            "GIT_AUTHOR_NAME": "Test",
            "GIT_AUTHOR_EMAIL": "test@example.com",
            "GIT_COMMITTER_NAME": "Test",
            "GIT_COMMITTER_EMAIL": "test@example.com",
            "GIT_AUTHOR_DATE": date,
            "GIT_COMMITTER_DATE": date,
            "GIT_CONFIG_GLOBAL": os.devnull,
            "GIT_CONFIG_NOSYSTEM": "1",
        }
        return git(self.root, *args, env=env).stdout

    def write(self, path: str, text: str) -> None:
        target = self.root / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text)

    def commit(self, subject: str, files: dict[str, str]) -> None:
        for path, text in files.items():
            self.write(path, text)
        self.git("add", "-A")
        self.git("commit", "-q", "-m", subject)


def make_history_repo(root: Path) -> HistoryRepo:
    """Every commit of `KEPT_AT_PARENT` and `SKIPPED_AT_PARENT`, oldest first."""
    repo = HistoryRepo(root)
    repo.commit(
        "Add inventory, billing and shipping modules",
        {
            "README.md": "# store\n",
            "store/__init__.py": '__version__ = "0.1.0"\n',
            "store/inventory.py": INVENTORY,
            "store/billing.py": BILLING,
            "store/shipping.py": SHIPPING,
        },
    )
    guarded = INVENTORY.replace(
        "    stock[sku] = stock.get",
        "    if quantity < 0:\n        raise ValueError(quantity)\n    stock[sku] = stock.get",
    )
    repo.commit("Reject negative quantities in restock_item", {"store/inventory.py": guarded})
    repo.commit("Bump version to 0.2.0", {"store/__init__.py": '__version__ = "0.2.0"\n'})
    black = BILLING.replace(
        "return total * (100 - percent) / 100", "return total*(100-percent)/100"
    )
    repo.commit("Reformat billing with black", {"store/billing.py": black})
    repo.commit("Tidy up the billing module layout", {"store/billing.py": black + "\n\n"})
    repo.git("checkout", "-q", "-b", "feature")
    rounded = black.replace(
        "return sum(price * quantity for price, quantity in lines)",
        "return round(sum(price * quantity for price, quantity in lines), 2)",
    )
    repo.commit("Round invoice_total to whole cents", {"store/billing.py": rounded})
    repo.git("checkout", "-q", "main")
    express = SHIPPING.replace(
        "def shipping_label(address):",
        "def shipping_label(address, express=False):",
    ).replace("return address.upper()", 'return ("EXPRESS " if express else "") + address.upper()')
    repo.commit("Add an express option to shipping_label", {"store/shipping.py": express})
    repo.git("merge", "-q", "--no-ff", "-m", "Merge branch 'feature'", "feature")
    repo.commit('Revert "Add an express option to shipping_label"', {"store/shipping.py": SHIPPING})
    repo.commit("Document the storage layout in the README", {"README.md": "# store\n\nLayout.\n"})
    repo.commit(
        "Add twelve generated fixture modules at once",
        {f"store/fixtures/f{n}.py": f"VALUE = {n}\n" for n in range(12)},
    )
    repo.commit(
        "Add a returns module for refunds", {"store/returns.py": "def refund(order):\n    ...\n"}
    )
    repo.commit("Fix tests", {"store/inventory.py": guarded + "\n# checked\n"})
    return repo
