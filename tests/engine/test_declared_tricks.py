"""The bids are written out as literal `Bid(...)` lines so they read like the book (issue 28), and the
settling code reads its own tables of the same trick counts: the two must never drift apart."""

from ledger.engine.variants import american, fontainebleau, french


def test_each_declared_bid_asks_the_tricks_its_variant_settles() -> None:
    cases = [
        (american, {**american.TRICK_BIDS, **dict.fromkeys(american.MISERES, 0)}),
        (fontainebleau, {**fontainebleau.TRICK_BIDS, **fontainebleau.NO_TRUMP_TRICKS}),
        (french, {code: tricks for code, (tricks, _) in french.INDEPENDENCES.items()}),
    ]
    for module, settled in cases:
        declared = {bid.code: bid.tricks for bid in module.DECLARATION.bids if bid.code in settled}
        assert declared == settled, module.__name__
