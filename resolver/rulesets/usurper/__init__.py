"""The usurper ruleset (seed 000): weekly turns of scouting, harvesting, building and fighting from a hidden
lair, scored every two months."""
