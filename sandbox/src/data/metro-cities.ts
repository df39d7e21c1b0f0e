/**
 * The real cities (and towns) of the metros where data centers cluster, so that a user's first
 * searches find what they look for — `Ashburn`, `Santa Clara`, `Hillsboro` — rather than a city
 * named after the market. The facilities themselves stay invented (labelled synthetic).
 */
export const METRO_CITIES: Readonly<Record<string, readonly string[]>> = {
  'northern-virginia': ['Ashburn', 'Sterling', 'Manassas', 'Leesburg', 'Reston', 'Chantilly', 'Herndon'],
  dallas: ['Dallas', 'Garland', 'Plano', 'Allen', 'Richardson', 'Carrollton', 'Irving'],
  phoenix: ['Phoenix', 'Mesa', 'Chandler', 'Goodyear', 'Tempe'],
  atlanta: ['Atlanta', 'Douglasville', 'Lithia Springs', 'Norcross', 'Alpharetta'],
  chicago: ['Chicago', 'Elk Grove Village', 'Franklin Park', 'Itasca', 'Lombard'],
  'silicon-valley': ['Santa Clara', 'San Jose', 'Sunnyvale', 'Milpitas', 'Fremont'],
  'new-york': ['New York', 'Orangeburg', 'Staten Island', 'Bronx'],
  portland: ['Portland', 'Beaverton', 'Gresham'],
  reno: ['Reno', 'Sparks', 'McCarran'],
  columbus: ['Columbus', 'Dublin', 'Hilliard', 'Groveport'],
  'salt-lake-city': ['Salt Lake City', 'West Jordan', 'Eagle Mountain', 'West Valley City'],
  charlotte: ['Charlotte', 'Concord', 'Huntersville'],
  denver: ['Denver', 'Englewood', 'Centennial', 'Aurora'],
  philadelphia: ['Philadelphia', 'King of Prussia', 'Plymouth Meeting'],
  houston: ['Houston', 'Katy', 'The Woodlands', 'Sugar Land'],
  austin: ['Austin', 'Round Rock', 'Pflugerville'],
  'san-antonio': ['San Antonio', 'Castroville'],
  minneapolis: ['Minneapolis', 'Shakopee', 'Chaska', 'Eagan'],
  'washington-dc': ['Washington'],
  baltimore: ['Baltimore', 'Columbia', 'Elkridge'],
};

/** The city of a metro's facility number `n` (deterministic, so the generated data stays stable). */
export function metroCity(slug: string, metroName: string, n: number): string {
  const cities = METRO_CITIES[slug];
  return cities?.length ? cities[n % cities.length] : metroName;
}
