"""The roster read from the campaigns folder: living heroes, the hall of the fallen, copies and broken files."""

from __future__ import annotations

from d100gui.engine.campaign import Campaign
from d100gui.engine.game import LogEntry
from d100gui.engine.hero.events import HeroFell
from d100gui.engine.hero.model import new_character
from d100gui.engine.protocol import Event
from d100gui.storage.campaigns import campaigns_dir, save_campaign
from d100gui.storage.resources import bundled_rules
from d100gui.storage.roster import line_of, read_roster
from d100gui.storage.store import CampaignStore, export_json, import_json

RULES = bundled_rules()


def _hero(name: str, rep: int = 2):
    ch = new_character(RULES)
    ch.creation = None
    ch.name, ch.rep, ch.gp = name, rep, 40
    return ch


def _fallen(name: str) -> Campaign:
    campaign = Campaign(hall_of_fallen=[_hero(name)])
    campaign.hall_of_fallen[0].dead = True
    campaign.meta.last_played = "2026-03-01T09:00:00"
    died = Event.of(HeroFell(name=name, source="a poison needle trap"))
    campaign.log = [LogEntry(index=0, command={"kind": "move"}, events=[died], at="2026-03-01T08:59:00")]
    return campaign


def test_living_and_fallen_heroes_from_stores_and_json_files():
    folder = campaigns_dir()
    living = Campaign(character=_hero("Bryn", rep=3))
    living.meta.last_played = "2026-04-01T10:00:00"
    CampaignStore.create(folder / "bryn.d100", living).close()
    save_campaign(_fallen("Cael"), folder / "cael.d100.json")
    (folder / "broken.d100").write_bytes(b"not a database")
    CampaignStore.create(folder / "empty.d100", Campaign()).close()  # no hero yet: not listed
    roster = read_roster(folder)
    assert [(h.name, h.rep, h.gold, h.fallen) for h in roster.living] == [("Bryn", 3, 40, False)]
    [cael] = roster.fallen
    assert cael.name == "Cael" and cael.death is not None
    assert (cael.death.cause, cael.death.at) == ("a poison needle trap", "2026-03-01T08:59:00")
    assert [b.path.name for b in roster.broken] == ["broken.d100"]


def test_copies_of_one_campaign_are_one_hero_opened_at_the_one_played_last():
    folder = campaigns_dir()
    first = Campaign(character=_hero("Dara"))
    first.meta.last_played = "2026-01-01T10:00:00"
    store = CampaignStore.create(folder / "dara.d100", first)
    text = export_json(store)
    store.close()
    copy = import_json(text.replace("2026-01-01T10:00:00", "2026-02-01T10:00:00"), folder / "dara-2.d100")
    copy.close()
    [dara] = read_roster(folder).living
    assert dara.path.name == "dara-2.d100" and {p.name for p in dara.campaigns} == {"dara.d100", "dara-2.d100"}


def test_the_campaign_in_play_is_read_from_memory():
    folder = campaigns_dir()
    campaign = _fallen("Eryn")
    path = folder / "eryn.d100"
    store = CampaignStore.create(path, campaign)  # held open (locked) as the window holds it
    try:
        roster = read_roster(folder, current=line_of(campaign, path))
    finally:
        store.close()
    [eryn] = roster.fallen
    assert eryn.path == path and eryn.death is not None and eryn.death.cause == "a poison needle trap" and not roster.broken
