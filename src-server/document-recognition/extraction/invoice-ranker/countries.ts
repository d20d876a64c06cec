import { lettersAndDigits } from '../values'

/**
 * Countries as address lines print them, in the six invoice languages and as short codes, a country to a row: a
 * line naming only a country ends an address and names no party ("USA", "Deutschland", "Royaume-Uni").
 */
const COUNTRY_NAMES = [
  'USA|U.S.A.|United States|United States of America|Vereinigte Staaten|États-Unis|Verenigde Staten|Stati Uniti|Estados Unidos',
  'United Kingdom|Great Britain|England|Scotland|Wales|Vereinigtes Königreich|Großbritannien|Royaume-Uni|Verenigd Koninkrijk|Regno Unito|Reino Unido',
  'Ireland|Irland|Irlande|Ierland|Irlanda',
  'Germany|Deutschland|Allemagne|Duitsland|Germania|Alemania',
  'France|Frankreich|Frankrijk|Francia',
  'Netherlands|The Netherlands|Niederlande|Pays-Bas|Nederland|Paesi Bassi|Países Bajos|Holland',
  'Belgium|Belgien|Belgique|België|Belgio|Bélgica',
  'Luxembourg|Luxemburg|Lussemburgo|Luxemburgo',
  'Austria|Österreich|Autriche|Oostenrijk',
  'Switzerland|Schweiz|Suisse|Zwitserland|Svizzera|Suiza',
  'Italy|Italien|Italie|Italië|Italia',
  'Spain|Spanien|Espagne|Spanje|Spagna|España',
  'Portugal|Portogallo',
  'Poland|Polen|Pologne|Polonia',
  'Czech Republic|Czechia|Tschechien|République tchèque',
  'Denmark|Dänemark|Danemark|Denemarken|Danimarca|Dinamarca',
  'Sweden|Schweden|Suède|Zweden|Svezia|Suecia',
  'Norway|Norwegen|Norvège|Noorwegen|Norvegia|Noruega',
  'Finland|Finnland|Finlande|Finlandia',
  'Greece|Griechenland|Grèce|Griekenland|Grecia',
  'Canada|Kanada',
  'Mexico|México|Mexiko|Mexique',
  'Brazil|Brasil|Brasilien|Brésil|Brazilië|Brasile',
  'Argentina|Argentinien|Argentine',
  'India|Indien|Inde',
  'China|Chine|Cina',
  'Japan|Japon|Giappone|Japón',
  'Singapore|Singapur|Singapour',
  'Malaysia|Malaisie',
  'Australia|Australien|Australie|Australië',
  'New Zealand|Neuseeland|Nouvelle-Zélande|Nieuw-Zeeland|Nuova Zelanda|Nueva Zelanda',
  'South Africa|Südafrika|Afrique du Sud|Zuid-Afrika|Sudafrica|Sudáfrica',
  'Turkey|Türkiye|Türkei|Turquie|Turkije|Turchia|Turquía',
  'Hong Kong|Hongkong',
  'Taiwan',
  'South Korea|Korea|Südkorea|Corée du Sud|Zuid-Korea|Corea del Sud|Corea del Sur',
  'Israel|Israël|Israele',
  'Russia|Russland|Russie|Rusland|Rusia',
  'Ukraine|Oekraïne|Ucraina|Ucrania',
  'United Arab Emirates|UAE',
  'Costa Rica',
  'Venezuela',
].flatMap((row) => row.split('|'))

const COUNTRIES = new Set(COUNTRY_NAMES.map(lettersAndDigits))

/** Does the text name only a country ("USA", "Deutschland")? */
export const isCountry = (text: string) => COUNTRIES.has(lettersAndDigits(text))
