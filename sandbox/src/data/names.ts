// Word lists for synthetic project, site and substation names. Invented combinations only.
export const NAME_PREFIXES = [
  'Cedar', 'Blue', 'Red', 'Iron', 'Prairie', 'Eagle', 'Hawk', 'Stone', 'Silver', 'Maple', 'Oak', 'Pine',
  'Willow', 'Bison', 'Copper', 'Granite', 'Sandy', 'Clear', 'Twin', 'Long', 'High', 'North', 'South',
  'East', 'West', 'Big', 'Little', 'Black', 'White', 'Green', 'Golden', 'Falcon', 'Coyote', 'Mesa',
  'Sunrise', 'Summit', 'Harbor', 'Liberty', 'Pioneer', 'Frontier', 'Atlas', 'Meridian', 'Horizon',
  'Juniper', 'Aspen', 'Sage', 'Thunder', 'Crescent', 'Lakeside', 'Riverbend', 'Timber', 'Quarry',
] as const;
export const NAME_SUFFIXES = [
  'Creek', 'Ridge', 'Valley', 'Hill', 'Flats', 'Prairie', 'Springs', 'Crossing', 'Point', 'Run',
  'Fork', 'Bluff', 'Meadow', 'Plains', 'Hollow', 'Grove', 'Trail', 'Junction', 'Bend', 'Lake',
] as const;
export const SUBSTATION_KV = [69, 115, 138, 161, 230, 345, 500, 765] as const;
