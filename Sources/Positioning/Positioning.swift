// Positioning: the house in numbers (specs/house.md). Pure: no I/O, no Foundation, no actors.
//
// - ``PlanePoint``, ``RoomPolygon``: 2-D geometry of a floor (x east, y north, metres;
//   bearings in degrees clockwise from north, as the simulator's yaw).
// - ``HousePlan``: the hosts (position, height, kit heading, floor) and the rooms (polygons per
//   floor) of `[[house.host]]` / `[[house.room]]`.
// - ``AccessoryFusion``: one accessory heard by several hosts: a robust tracked 2-D position
//   from their ranges (weighted by figure of merit, NLoS and age) and azimuths (turned by each
//   host's heading), a room with hysteresis at borders, and presence (`not_home` after
//   ``FusionParameters/awayAfter`` seconds unheard).
// - ``ClockSkewEstimator``: how far a host's clock is from the watcher's, from arrival times.
// - ``HostSurvey``: host positions (and kit headings) from host-to-host ranges, given two hosts.
