/** The 50 states and DC with the weights the synthetic corpus spreads its cities by. */

/** One state: its name, postal abbreviation, relative weight and an approximate interior point. */
export interface UsState {
  name: string;
  abbr: string;
  /** 2020 census population in millions: cities of a service like this one follow people. */
  weight: number;
  lat: number;
  lng: number;
}

const rows: Array<[string, string, number, number, number]> = [
  ['Alabama', 'AL', 5.02, 32.8, -86.8], ['Alaska', 'AK', 0.73, 61.4, -150.0], ['Arizona', 'AZ', 7.15, 33.7, -111.7],
  ['Arkansas', 'AR', 3.01, 34.9, -92.4], ['California', 'CA', 39.5, 36.5, -119.5], ['Colorado', 'CO', 5.77, 39.0, -105.5],
  ['Connecticut', 'CT', 3.61, 41.6, -72.7], ['Delaware', 'DE', 0.99, 39.0, -75.5], ['District of Columbia', 'DC', 0.69, 38.9, -77.0],
  ['Florida', 'FL', 21.5, 28.1, -81.7], ['Georgia', 'GA', 10.7, 32.9, -83.4], ['Hawaii', 'HI', 1.46, 21.3, -157.8],
  ['Idaho', 'ID', 1.84, 43.6, -115.0], ['Illinois', 'IL', 12.8, 40.0, -89.2], ['Indiana', 'IN', 6.79, 39.9, -86.3],
  ['Iowa', 'IA', 3.19, 42.0, -93.5], ['Kansas', 'KS', 2.94, 38.5, -98.3], ['Kentucky', 'KY', 4.51, 37.5, -85.3],
  ['Louisiana', 'LA', 4.66, 31.0, -92.0], ['Maine', 'ME', 1.36, 45.0, -69.2], ['Maryland', 'MD', 6.18, 39.0, -76.8],
  ['Massachusetts', 'MA', 7.03, 42.3, -71.8], ['Michigan', 'MI', 10.1, 43.3, -84.5], ['Minnesota', 'MN', 5.71, 45.7, -93.9],
  ['Mississippi', 'MS', 2.96, 32.7, -89.7], ['Missouri', 'MO', 6.15, 38.4, -92.5], ['Montana', 'MT', 1.08, 46.9, -110.4],
  ['Nebraska', 'NE', 1.96, 41.5, -99.8], ['Nevada', 'NV', 3.1, 38.5, -117.0], ['New Hampshire', 'NH', 1.38, 43.7, -71.6],
  ['New Jersey', 'NJ', 9.29, 40.2, -74.7], ['New Mexico', 'NM', 2.12, 34.4, -106.1], ['New York', 'NY', 20.2, 42.9, -75.5],
  ['North Carolina', 'NC', 10.4, 35.6, -79.4], ['North Dakota', 'ND', 0.78, 47.5, -100.5], ['Ohio', 'OH', 11.8, 40.3, -82.8],
  ['Oklahoma', 'OK', 3.96, 35.6, -97.5], ['Oregon', 'OR', 4.24, 44.0, -120.6], ['Pennsylvania', 'PA', 13.0, 40.9, -77.8],
  ['Rhode Island', 'RI', 1.1, 41.7, -71.5], ['South Carolina', 'SC', 5.12, 33.9, -80.9], ['South Dakota', 'SD', 0.89, 44.4, -100.2],
  ['Tennessee', 'TN', 6.91, 35.9, -86.4], ['Texas', 'TX', 29.1, 31.5, -99.3], ['Utah', 'UT', 3.27, 39.3, -111.7],
  ['Vermont', 'VT', 0.64, 44.1, -72.7], ['Virginia', 'VA', 8.63, 37.5, -78.8], ['Washington', 'WA', 7.71, 47.4, -120.5],
  ['West Virginia', 'WV', 1.79, 38.6, -80.6], ['Wisconsin', 'WI', 5.89, 44.6, -89.9], ['Wyoming', 'WY', 0.58, 43.0, -107.5],
];

/** Every state and DC, alphabetical by name. */
export const US_STATES: readonly UsState[] = rows.map(([name, abbr, weight, lat, lng]) => ({ name, abbr, weight, lat, lng }));
