"""Pool arithmetic shared by the variants.

Two models: the single pool of Fontainebleau, French and Russian Boston (always one amount, maybe 0),
and the American list of pools with its limit (`rules.md` §1.5). Both keep only the amounts; who pays
whom is recorded by the deal, and the replay checks that the two agree (conservation).
"""

from __future__ import annotations


class SinglePool:
    """One pool (the French pool, the Russian basket, the Fontainebleau pool)."""

    __slots__ = ("amount",)

    def __init__(self, carried_in: tuple[int, ...] = ()) -> None:
        self.amount = carried_in[0] if carried_in else 0

    @property
    def total(self) -> int:
        return self.amount

    def as_list(self) -> list[int]:
        return [self.amount]

    def copy(self) -> SinglePool:
        return SinglePool((self.amount,))

    def feed(self, amount: int) -> None:
        self.amount += amount

    def withdraw(self, amount: int) -> None:
        """Take `amount` out; the caller has checked the pool holds it."""
        self.amount -= amount

    def take_all(self) -> int:
        amount, self.amount = self.amount, 0
        return amount

    def double(self) -> int:
        """What a failure pays in: an amount equal to the pool, which then holds twice as much."""
        amount = self.amount
        self.amount += amount
        return amount


class AmericanPools:
    """American Boston's pools: a list kept oldest first, each holding at most `limit` (None: no limit)."""

    __slots__ = ("limit", "pools")

    def __init__(self, carried_in: tuple[int, ...], limit: int | None) -> None:
        self.pools = [p for p in carried_in if p]
        self.limit = limit

    @property
    def total(self) -> int:
        return sum(self.pools)

    def as_list(self) -> list[int]:
        return list(self.pools)

    def copy(self) -> AmericanPools:
        return AmericanPools(tuple(self.pools), self.limit)

    def feed(self, amount: int) -> None:
        """Put `amount` into the newest pool up to the limit, starting new pools as needed."""
        pools, limit = self.pools, self.limit
        if amount > 0 and pools and (limit is None or pools[-1] + amount <= limit):  # it fits in the newest
            pools[-1] += amount
            return
        while amount > 0:
            if not pools or (limit is not None and pools[-1] >= limit):
                pools.append(0)
            room = amount if limit is None else min(amount, limit - pools[-1])
            pools[-1] += room
            amount -= room

    def take(self) -> int:
        """A made pool contract takes one pool: the oldest full one, else the oldest (0 if none)."""
        pools, limit = self.pools, self.limit
        if not pools:
            return 0
        if limit is not None:
            for index, amount in enumerate(pools):
                if amount >= limit:
                    return pools.pop(index)
        return pools.pop(0)

    def double(self) -> int:
        """A failure doubles the pools; returns what the bidder pays in (§1.5)."""
        pools, limit = self.pools, self.limit
        if not pools:
            return 0
        if len(pools) == 1:
            amount = pools[0]
            if limit is not None and 2 * amount > limit:
                self.pools = [limit, 2 * amount - limit]
            else:
                pools[0] = 2 * amount
            return amount
        amount = pools[0]
        pools.append(amount)
        return amount

    def take_all(self) -> int:
        amount = sum(self.pools)
        self.pools = []
        return amount

    def withdraw(self, amount: int) -> None:
        """An adjustment out of the pools: newest first, emptied pools removed (house default)."""
        pools = self.pools
        while amount > 0:
            part = min(amount, pools[-1])
            pools[-1] -= part
            amount -= part
            if not pools[-1]:
                pools.pop()
