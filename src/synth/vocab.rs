//! Word lists for the synthetic generator: subjects (what a family of tools is about), facets
//! (what kind of source), aspects (field groups) with their properties, units, names.
//!
//! Properties and subjects are compact text tables, parsed once ([`aspects`], [`subjects`]).
//! A property row is `id | words | synonyms (;-separated) | symbol | abbreviation | kind`, where
//! kind is a unit family (`canonical, alternative, ...`: fields may publish in any of them, as
//! NOMAD publishes joules where the concept is in eV) or one of `ratio` (dimensionless, unit
//! `1`), `percent` (dimensionless, fields may publish `%`), `count`, `text`, `flag`, `date`,
//! `datetime`. Every unit spelling here parses in the built-in unit table (a unit test checks).

use std::sync::OnceLock;

/// What a property's values are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A number in `canonical` or one of the convertible alternatives.
    Quantity {
        /// The concept's canonical unit.
        canonical: &'static str,
        /// Other units of the same dimension that fields may use, comma-separated.
        alternatives: &'static str,
    },
    /// A dimensionless number (canonical unit `1`; with `percent`, fields may publish `%`).
    Ratio {
        /// Whether fields may publish it in percent.
        percent: bool,
    },
    /// A whole-number count (`dimension: count`, no unit).
    Count,
    /// Free text or a category (`dimension: none`).
    Text,
    /// A yes/no flag.
    Flag,
    /// A calendar date.
    Date,
    /// A date and time.
    DateTime,
}

impl Kind {
    /// The alternative units of a quantity (none for other kinds).
    pub fn alternatives(self) -> Vec<&'static str> {
        match self {
            Kind::Quantity { alternatives, .. } => alternatives
                .split(',')
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .collect(),
            _ => Vec::new(),
        }
    }
}

/// A property a field group measures.
#[derive(Clone, Copy, Debug)]
pub struct Prop {
    /// Snake-case id, unique over all aspects (`melting_point`).
    pub id: &'static str,
    /// How people write it (`melting point`).
    pub words: &'static str,
    /// Other phrasings, `;`-separated.
    synonyms: &'static str,
    /// A symbol (`T_m`); empty for none.
    pub symbol: &'static str,
    /// The abbreviation providers use as a key (`mp`).
    pub abbr: &'static str,
    /// Its value kind and units.
    pub kind: Kind,
}

impl Prop {
    /// Other phrasings.
    pub fn synonyms(&self) -> impl Iterator<Item = &'static str> {
        self.synonyms
            .split(';')
            .map(str::trim)
            .filter(|s| !s.is_empty())
    }

    fn parse(row: &'static str) -> Prop {
        let c: Vec<&'static str> = row.split('|').map(str::trim).collect();
        assert_eq!(c.len(), 6, "property row `{row}` needs 6 columns");
        let kind = match c[5] {
            "ratio" => Kind::Ratio { percent: false },
            "percent" => Kind::Ratio { percent: true },
            "count" => Kind::Count,
            "text" => Kind::Text,
            "flag" => Kind::Flag,
            "date" => Kind::Date,
            "datetime" => Kind::DateTime,
            units => {
                let (canonical, alternatives) = units.split_once(',').unwrap_or((units, ""));
                Kind::Quantity {
                    canonical: canonical.trim(),
                    alternatives: alternatives.trim(),
                }
            }
        };
        Prop {
            id: c[0],
            words: c[1],
            synonyms: c[2],
            symbol: c[3],
            abbr: c[4],
            kind,
        }
    }
}

/// A field group kind with its properties.
#[derive(Clone, Debug)]
pub struct Aspect {
    /// Snake-case id (`thermal`).
    pub id: &'static str,
    /// Display words (`thermal`).
    pub words: &'static str,
    /// Its properties.
    pub props: Vec<Prop>,
}

/// (id, words, property rows) of the fourteen aspects.
const ASPECT_TABLE: &[(&str, &str, &[&str])] = &[
    (
        "thermal",
        "thermal",
        &[
            "temperature | temperature | temp | T | temp | K, mK",
            "melting_point | melting point | melting temperature; fusion point | T_m | mp | K",
            "boiling_point | boiling point | boiling temperature | T_b | bp | K",
            "thermal_conductivity | thermal conductivity | heat conductivity | kappa | k_th | W/(m·K)",
            "heat_capacity | heat capacity | specific heat | c_p | cp | J/(kg·K)",
            "thermal_expansion | thermal expansion coefficient | expansion coefficient; CTE | alpha_T | cte | 1/K",
            "heat_flux | heat flux | thermal flux | q_h | hflux | W/m^2, mW/cm^2",
            "thermal_diffusivity | thermal diffusivity | heat diffusivity | D_th | diffusivity | m^2/s",
            "glass_transition | glass transition temperature | glass transition point | T_g | tg | K",
            "latent_heat | latent heat | heat of fusion | L_f | latent | J/kg, kJ/kg",
        ],
    ),
    (
        "mechanical",
        "mechanical",
        &[
            "youngs_modulus | Young's modulus | elastic modulus; tensile modulus | E_Y | E | GPa, MPa",
            "shear_modulus | shear modulus | rigidity modulus | G_s | G | GPa, MPa",
            "bulk_modulus | bulk modulus | compression modulus | K_b | K | GPa",
            "hardness | hardness | Vickers hardness | H_V | hv | GPa, MPa",
            "tensile_strength | tensile strength | ultimate tensile strength; UTS | sigma_uts | uts | MPa, GPa",
            "yield_strength | yield strength | yield stress | sigma_y | ys | MPa",
            "poisson_ratio | Poisson's ratio | Poisson ratio | nu | nu | ratio",
            "elongation | elongation at break | strain at break | eps_b | elong | percent",
            "mass_density | density | mass density | rho | rho | g/cm^3, kg/m^3",
        ],
    ),
    (
        "electrical",
        "electrical",
        &[
            "resistivity | electrical resistivity | resistivity | rho_e | res | Ω·m",
            "conductivity | electrical conductivity | conductivity | sigma_e | cond | S/m, mS/cm",
            "voltage | voltage | potential | U | volt | V, mV",
            "current | current | electric current | I | curr | A, mA",
            "capacitance | capacitance | capacity | C_p | cap | F, μF",
            "band_gap | band gap | energy gap | E_g | eg | eV, meV",
            "charge | charge capacity | stored charge | Q | q | C, mC",
            "power_output | power output | output power | P_out | pwr | W, kW, mW",
            "efficiency | efficiency | conversion efficiency | eta | eff | percent",
            "impedance | impedance | electrical impedance | Z | imp | Ω, kΩ",
        ],
    ),
    (
        "optical",
        "optical",
        &[
            "refractive_index | refractive index | index of refraction | n_r | ri | ratio",
            "absorbance | absorbance | optical density | A_bs | abs | ratio",
            "reflectance | reflectance | reflectivity | R_f | refl | percent",
            "transmittance | transmittance | transmission | T_r | trans | percent",
            "wavelength | peak wavelength | wavelength | lambda | wl | nm, μm, Å",
            "irradiance | irradiance | radiant flux density | E_e | irr | W/m^2, mW/cm^2",
            "photon_energy | photon energy | light energy | E_ph | eph | eV, meV",
            "colour | colour | color |  | colour | text",
        ],
    ),
    (
        "chemical",
        "chemical",
        &[
            "ph | pH | acidity | pH | ph | ratio",
            "concentration | concentration | molar concentration | c | conc | mol/L, mmol/L",
            "molar_mass | molar mass | molecular weight | M | mw | g/(mol·f.u.), kg/(mol·f.u.)",
            "solubility | solubility | dissolved amount | S_w | sol | mg/L, μg/L",
            "oxidation_state | oxidation state | valence | ox | ox | count",
            "purity | purity | assay | P_u | pur | percent",
            "reaction_rate | reaction rate | rate of reaction | r | rate | mol/(L·s)",
            "salinity | salinity | salt content | S_a | sal | percent",
            "dissolved_oxygen | dissolved oxygen | oxygen content | DO | do | mg/L, μg/L",
            "formula | chemical formula | composition formula |  | formula | text",
        ],
    ),
    (
        "spatial",
        "spatial",
        &[
            "latitude | latitude | lat | phi | lat | deg, rad",
            "longitude | longitude | lon | lambda_g | lon | deg, rad",
            "elevation | elevation | altitude; height above sea level | z | elev | m, km",
            "depth | depth | depth below surface | d | depth | m, cm, km",
            "area | area | surface area | A | area | m^2, km^2, cm^2",
            "distance | distance | range | s_d | dist | m, km",
            "volume | volume | bulk volume | V | vol | m^3, L",
            "slope | slope | gradient angle | theta | slope | deg",
            "region_name | region | area name |  | region | text",
        ],
    ),
    (
        "temporal",
        "temporal",
        &[
            "duration | duration | length of time | t_d | dur | s, min, h, ms",
            "sampling_interval | sampling interval | sampling period | dt | dt | s, ms, min",
            "observed_at | observation date | date observed |  | obs_date | date",
            "start_date | start date | begin date |  | start | date",
            "end_date | end date | finish date |  | end | date",
            "frequency | frequency | rate of occurrence | f | freq | Hz, kHz, MHz",
            "lifetime | lifetime | service life | tau | life | h, min, s",
            "recorded_at | recording time | time recorded |  | rec_time | datetime",
        ],
    ),
    (
        "structural",
        "structural",
        &[
            "lattice_constant | lattice constant | lattice parameter | a_0 | a | Å, nm, pm",
            "cell_volume | cell volume | unit cell volume | V_c | vcell | Å^3, nm^3",
            "grain_size | grain size | crystallite size | d_g | grain | μm, nm, mm",
            "porosity | porosity | pore fraction | phi_p | poro | percent",
            "crystal_system | crystal system | lattice system |  | xtal_sys | text",
            "space_group | space group | symmetry group |  | sg | text",
            "coordination_number | coordination number | number of neighbours | CN | cn | count",
            "thickness | thickness | film thickness | t_f | thk | nm, μm, mm",
        ],
    ),
    (
        "quality",
        "quality",
        &[
            "uncertainty | uncertainty | standard error; error bar | u | unc | percent",
            "quality_flag | quality flag | QC flag |  | qc | text",
            "signal_to_noise | signal-to-noise ratio | SNR | SNR | snr | ratio",
            "detection_limit | detection limit | limit of detection | LOD | lod | mg/L, μg/L",
            "completeness | completeness | coverage | C_m | compl | percent",
            "sample_count | sample count | number of samples | N_s | n | count",
            "validated | validation status | validated |  | valid | flag",
            "method | measurement method | technique |  | method | text",
        ],
    ),
    (
        "kinetic",
        "flow and motion",
        &[
            "velocity | velocity | speed | v | vel | m/s, km/h",
            "flow_rate | flow rate | discharge | Q_f | flow | m^3/s, L/s",
            "acceleration | acceleration | rate of velocity change | a_c | acc | m/s^2",
            "pressure | pressure | static pressure | p | pres | kPa, Pa, MPa",
            "rotation_rate | rotation rate | rotational speed | omega | rot | Hz",
            "wave_height | wave height | significant wave height | H_s | hs | m, cm",
            "wind_speed | wind speed | wind velocity | u_w | ws | m/s, km/h",
        ],
    ),
    (
        "magnetic",
        "magnetic",
        &[
            "magnetic_moment | magnetic moment | moment | mu | mag_mom | μB",
            "magnetic_field | magnetic field | field strength | B | bfield | T, mT",
            "coercivity | coercivity | coercive field | H_c | hc | A/m",
            "magnetization | magnetization | magnetisation | M_s | magn | A/m",
            "susceptibility | magnetic susceptibility | susceptibility | chi | chi | ratio",
            "curie_temperature | Curie temperature | Curie point | T_C | tc | K",
            "magnetic_ordering | magnetic ordering | magnetic order |  | ordering | text",
        ],
    ),
    (
        "biological",
        "biological",
        &[
            "cell_count | cell count | number of cells | N_c | cells | count",
            "growth_rate | growth rate | specific growth rate | mu_g | growth | 1/h",
            "biomass | biomass | living mass | B_m | biomass | kg, g",
            "expression_level | expression level | expression | E_x | expr | ratio",
            "viability | viability | survival rate | V_b | viab | percent",
            "species_name | species | taxon |  | species | text",
            "doubling_time | doubling time | generation time | t_2 | tdbl | h, min",
        ],
    ),
    (
        "energy",
        "energy",
        &[
            "energy_content | energy content | stored energy | E_s | energy | J, kJ, MJ, kW·h",
            "power_rating | rated power | power rating | P_r | prated | kW, W, MW",
            "energy_density | energy density | specific energy | e_d | edens | J/kg, kJ/kg",
            "capacity_factor | capacity factor | utilisation factor | CF | cf | percent",
            "emissions | CO2 emissions | carbon emissions | m_CO2 | co2 | kg, g",
            "consumption | energy consumption | energy use | E_c | cons | J, kJ, MJ",
        ],
    ),
    (
        "acoustic",
        "acoustic",
        &[
            "sound_pressure | sound pressure | acoustic pressure | p_s | spl | Pa, mPa",
            "acoustic_frequency | acoustic frequency | pitch | f_a | afreq | Hz, kHz",
            "reverberation_time | reverberation time | RT60 | T60 | rt60 | s, ms",
            "sound_speed | speed of sound | sound velocity | c_s | csnd | m/s",
            "absorption_coefficient | absorption coefficient | sound absorption | alpha_a | alpha | ratio",
            "noise_type | noise type | noise category |  | noise | text",
        ],
    ),
];

/// The aspects, parsed once.
pub fn aspects() -> &'static [Aspect] {
    static A: OnceLock<Vec<Aspect>> = OnceLock::new();
    A.get_or_init(|| {
        ASPECT_TABLE
            .iter()
            .map(|(id, words, rows)| Aspect {
                id,
                words,
                props: rows.iter().map(|r| Prop::parse(r)).collect(),
            })
            .collect()
    })
}

/// The aspect with this id.
pub fn aspect(id: &str) -> &'static Aspect {
    aspects()
        .iter()
        .find(|a| a.id == id)
        .unwrap_or_else(|| panic!("unknown aspect `{id}`"))
}

/// A subject: what a family of tools is about.
#[derive(Clone, Debug)]
pub struct Subject {
    /// Snake-case id (`air_quality`).
    pub id: &'static str,
    /// Display words (`air quality`).
    pub words: &'static str,
    /// What one record describes (`monitor`).
    pub entity: &'static str,
    /// Relevant aspects (ids of [`aspects`]).
    pub aspects: Vec<&'static str>,
}

/// Subject rows: `id | words | entity | five aspect ids`.
const SUBJECT_TABLE: &[&str] = &[
    "ocean | ocean | buoy | thermal chemical kinetic spatial biological",
    "soil | soil | sample | chemical mechanical spatial biological quality",
    "atmosphere | atmosphere | station | thermal kinetic chemical spatial optical",
    "battery | battery | cell | electrical thermal energy quality structural",
    "polymer | polymer | resin | mechanical thermal chemical optical structural",
    "protein | protein | structure | structural chemical biological thermal quality",
    "genome | genome | assembly | biological quality temporal chemical structural",
    "catalyst | catalyst | catalyst | chemical structural thermal energy quality",
    "reservoir | reservoir | well | kinetic spatial thermal chemical energy",
    "grid | power grid | substation | electrical energy temporal quality spatial",
    "satellite | satellite imagery | scene | optical spatial temporal quality thermal",
    "traffic | traffic | sensor | kinetic temporal spatial quality acoustic",
    "glacier | glacier | glacier | thermal spatial kinetic temporal quality",
    "volcano | volcano | vent | thermal chemical spatial acoustic temporal",
    "seismic | seismic | event | kinetic spatial temporal acoustic quality",
    "semiconductor | semiconductor | wafer | electrical optical structural thermal quality",
    "alloy | alloy | alloy | mechanical thermal structural magnetic chemical",
    "ceramic | ceramic | ceramic | mechanical thermal electrical structural optical",
    "solar | solar | module | optical electrical energy thermal temporal",
    "wind | wind power | turbine | kinetic energy acoustic mechanical temporal",
    "hydrogen | hydrogen | electrolyser | energy electrical chemical thermal quality",
    "fusion | fusion | shot | thermal magnetic energy temporal quality",
    "plasma | plasma | discharge | electrical thermal magnetic optical temporal",
    "laser | laser | pulse | optical energy temporal thermal quality",
    "optics | optics | lens | optical structural mechanical quality thermal",
    "building | building | building | thermal energy acoustic structural spatial",
    "bridge | bridge | bridge | mechanical structural kinetic temporal quality",
    "railway | railway | track | mechanical kinetic acoustic spatial temporal",
    "aviation | aviation | flight | kinetic spatial temporal energy acoustic",
    "shipping | shipping | vessel | kinetic spatial energy temporal quality",
    "mining | mining | deposit | chemical spatial structural mechanical quality",
    "water | water treatment | plant | chemical kinetic quality biological temporal",
    "air_quality | air quality | monitor | chemical quality spatial temporal optical",
    "wildlife | wildlife | population | biological spatial temporal quality acoustic",
    "fishery | fishery | stock | biological spatial temporal quality chemical",
    "weather | weather | station | thermal kinetic spatial temporal optical",
    "coral | coral reef | reef | biological thermal chemical spatial optical",
    "wetland | wetland | wetland | biological chemical spatial kinetic quality",
    "river | river | gauge | kinetic chemical spatial temporal biological",
    "forest | forest | plot | biological spatial chemical temporal thermal",
    "crop | crop | field | biological chemical spatial temporal quality",
    "vaccine | vaccine | lot | biological quality temporal chemical thermal",
    "clinical | clinical trial | trial | biological quality temporal chemical spatial",
    "microbiome | microbiome | sample | biological chemical quality temporal spatial",
    "neuro | neuroscience | recording | electrical temporal biological quality acoustic",
    "cardio | cardiology | patient | electrical kinetic temporal biological quality",
    "imaging | medical imaging | scan | optical spatial quality temporal magnetic",
    "drug | drug | compound | chemical biological quality thermal structural",
    "enzyme | enzyme | enzyme | chemical biological thermal kinetic quality",
    "textile | textile | fabric | mechanical thermal optical chemical quality",
    "food | food | product | chemical biological thermal quality temporal",
    "packaging | packaging | material | mechanical chemical thermal optical quality",
    "concrete | concrete | mix | mechanical chemical thermal temporal structural",
    "steel | steel | heat | mechanical thermal chemical structural magnetic",
    "glass | glass | melt | optical thermal mechanical chemical structural",
    "timber | timber | board | mechanical thermal biological structural quality",
    "asphalt | asphalt | section | mechanical thermal spatial temporal quality",
    "magnet | permanent magnet | magnet | magnetic thermal structural mechanical electrical",
    "superconductor | superconductor | sample | electrical magnetic thermal structural quality",
    "thin_film | thin film | film | structural optical electrical mechanical quality",
    "nanoparticle | nanoparticle | particle | structural optical chemical magnetic quality",
    "groundwater | groundwater | well | chemical kinetic spatial temporal quality",
    "geothermal | geothermal | borehole | thermal energy kinetic spatial chemical",
    "nuclear | nuclear power | reactor | energy thermal quality temporal kinetic",
    "concert_hall | concert hall | hall | acoustic structural spatial thermal quality",
    "robotics | robotics | robot | kinetic electrical mechanical energy temporal",
    "drone | drone | drone | kinetic energy spatial temporal acoustic",
    "ev_charging | EV charging | charger | electrical energy temporal spatial quality",
];

/// The subjects, parsed once.
pub fn subjects() -> &'static [Subject] {
    static S: OnceLock<Vec<Subject>> = OnceLock::new();
    S.get_or_init(|| {
        SUBJECT_TABLE
            .iter()
            .map(|row| {
                let c: Vec<&'static str> = row.split('|').map(str::trim).collect();
                assert_eq!(c.len(), 4, "subject row `{row}` needs 4 columns");
                Subject {
                    id: c[0],
                    words: c[1],
                    entity: c[2],
                    aspects: c[3].split_whitespace().collect(),
                }
            })
            .collect()
    })
}

/// A facet: what kind of source a domain's tools are.
#[derive(Clone, Copy, Debug)]
pub struct Facet {
    /// Snake-case id (`observations`).
    pub id: &'static str,
    /// Title noun (`Observatory`).
    pub title: &'static str,
    /// Source type of its tools.
    pub source_type: &'static str,
    /// Description phrase (`Field observations of`).
    pub phrase: &'static str,
    /// How values are made (provenance method).
    pub method: &'static str,
    /// Endpoint ids (first, second).
    pub endpoints: [&'static str; 2],
}

/// The facets.
pub const FACETS: &[Facet] = &[
    Facet {
        id: "observations",
        title: "Observatory",
        source_type: "experimental",
        phrase: "Field observations of",
        method: "In-situ field instruments, quality-controlled by the operator",
        endpoints: ["observations", "stations"],
    },
    Facet {
        id: "measurements",
        title: "Lab",
        source_type: "experimental",
        phrase: "Laboratory measurements of",
        method: "Laboratory measurements under documented conditions",
        endpoints: ["measurements", "samples"],
    },
    Facet {
        id: "simulations",
        title: "Simulations",
        source_type: "calculated",
        phrase: "Simulated properties of",
        method: "Physics-based simulation workflows with published settings",
        endpoints: ["summary", "runs"],
    },
    Facet {
        id: "forecasts",
        title: "Forecast Service",
        source_type: "calculated",
        phrase: "Model forecasts for",
        method: "Ensemble model forecasts, recomputed daily",
        endpoints: ["forecast", "hindcast"],
    },
    Facet {
        id: "registry",
        title: "Registry",
        source_type: "regulatory_filing",
        phrase: "Registered filings about",
        method: "Mandatory regulatory filings, as submitted",
        endpoints: ["records", "filings"],
    },
    Facet {
        id: "literature",
        title: "Literature Index",
        source_type: "literature",
        phrase: "Values reported in the literature for",
        method: "Values curated from peer-reviewed papers",
        endpoints: ["values", "papers"],
    },
    Facet {
        id: "archive",
        title: "Archive",
        source_type: "experimental",
        phrase: "Archived historical data on",
        method: "Digitised historical measurement records",
        endpoints: ["search", "datasets"],
    },
    Facet {
        id: "models",
        title: "Model Hub",
        source_type: "calculated",
        phrase: "Machine-learned predictions for",
        method: "Machine-learning models trained on public data",
        endpoints: ["predict", "models"],
    },
    Facet {
        id: "sensors",
        title: "Sensor Network",
        source_type: "experimental",
        phrase: "Live sensor readings from",
        method: "Networked sensors reporting at fixed intervals",
        endpoints: ["readings", "devices"],
    },
    Facet {
        id: "forum",
        title: "Forum",
        source_type: "web",
        phrase: "Community-contributed notes on",
        method: "User posts, moderated by the community",
        endpoints: ["threads", "posts"],
    },
];

/// Proper-name prefixes for tool titles.
pub const PREFIXES: &[&str] = &[
    "Aurora", "Boreal", "Cobalt", "Delta", "Ember", "Fjord", "Granite", "Helix", "Iris", "Juniper",
    "Kestrel", "Lumen", "Meridian", "Nimbus", "Onyx", "Polaris", "Quartz", "Riviera", "Sierra",
    "Tundra", "Umbra", "Vertex", "Willow", "Xenon", "Yarrow", "Zephyr", "Atlas", "Beacon",
    "Cascade", "Dune", "Echo", "Falcon", "Gale", "Harbor", "Indigo", "Jade", "Keystone", "Larch",
    "Mosaic", "Nova", "Orbit", "Prism", "Quill", "Radiant", "Summit", "Terra", "Unity", "Vector",
    "Wren", "Apex", "Basalt", "Cedar", "Drift", "Equinox", "Flint", "Garnet", "Halo", "Ion",
    "Jasper", "Kite", "Lark", "Maple", "Nexus", "Oasis", "Pioneer", "Quasar", "Raven", "Sable",
    "Tidal", "Upland", "Vale", "Westwind", "Yukon", "Zenith", "Amber", "Bristle", "Coral", "Dawn",
    "Elm", "Fern", "Grove", "Heron", "Isle", "Jet", "Kelp", "Lotus", "Mica", "Nordic", "Opal",
    "Pine", "Quay", "Ridge", "Slate", "Thistle", "Ursa", "Vireo", "Wave", "Alder", "Birch",
    "Canyon", "Dover", "Eagle", "Frost", "Gable", "Hawthorn", "Ivory", "Jubilee", "Kodiak",
    "Lagoon", "Marble", "Nectar", "Oak", "Pebble", "Quarry", "Rowan", "Spruce", "Topaz", "Valley",
    "Walnut", "Aspen", "Bay", "Crest",
];

/// Institution kinds for publishers.
pub const INSTITUTIONS: &[&str] = &[
    "Institute",
    "Consortium",
    "Foundation",
    "Laboratory",
    "Agency",
    "University Centre",
    "Research Council",
    "Data Cooperative",
];

/// Qualifier variants: (key, values).
pub const QUALIFIERS: &[(&str, &[&str])] = &[
    ("statistic", &["mean", "max", "min", "median"]),
    ("method", &["measured", "modelled", "estimated"]),
    ("condition", &["ambient", "reference", "operating"]),
];

/// Licences: (SPDX, needs attribution).
pub const LICENCES: &[(&str, bool)] = &[
    ("CC-BY-4.0", true),
    ("CC0-1.0", false),
    ("CC-BY-SA-4.0", true),
    ("ODbL-1.0", false),
    ("CC-BY-NC-4.0", true),
    ("LicenseRef-provider-terms", false),
];

/// The generic parameter concepts: (id, aliases).
pub const PARAM_CONCEPTS: &[(&str, &[&str], &str)] = &[
    (
        "record_id",
        &["record identifier", "accession number"],
        "The id of one record, as the provider writes it.",
    ),
    (
        "search_text",
        &["keywords to search", "search terms"],
        "Free text describing what to search for.",
    ),
    (
        "max_results",
        &["number of results", "result limit"],
        "How many results to return.",
    ),
    (
        "entity_name",
        &["entity name to look up", "name to search"],
        "The name of the thing a record describes.",
    ),
    (
        "year_from",
        &["from year", "starting year"],
        "Earliest year (inclusive), 4 digits.",
    ),
    (
        "year_to",
        &["until year", "ending year"],
        "Latest year (inclusive), 4 digits.",
    ),
    (
        "region",
        &["geographic region", "region to search"],
        "A region or area name.",
    ),
    (
        "doi",
        &["DOI of the paper", "digital object identifier"],
        "A DOI (`10.1234/abc`).",
    ),
    (
        "author",
        &["by author", "author name"],
        "An author or submitter to search for.",
    ),
    (
        "country",
        &["country code", "nation"],
        "An ISO 3166 country code or name.",
    ),
    (
        "language",
        &["language code", "in language"],
        "A language code (`en`).",
    ),
    (
        "status",
        &["record status", "filing status"],
        "A record status (`active`, `retired`).",
    ),
];

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    #[test]
    fn tables_parse_and_units_are_known() {
        let units = crate::units::UnitTable::builtin();
        let mut ids = BTreeSet::new();
        for a in aspects() {
            assert!(a.props.len() >= 6, "{}", a.id);
            for p in &a.props {
                assert!(ids.insert(p.id), "property id `{}` is used twice", p.id);
                if let Kind::Quantity { canonical, .. } = p.kind {
                    for u in std::iter::once(canonical).chain(p.kind.alternatives()) {
                        assert!(units.parse(u).is_ok(), "unit `{u}` of `{}`", p.id);
                    }
                }
            }
        }
        for s in subjects() {
            assert_eq!(s.aspects.len(), 5, "{}", s.id);
            for a in &s.aspects {
                aspect(a);
            }
        }
        assert_eq!(aspects().len(), 14);
        assert!(subjects().len() * FACETS.len() >= 500);
    }
}
