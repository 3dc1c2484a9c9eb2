//! Held-out-style questions (written for issue 18, not taken from the development set), one
//! table per behaviour, each asserting the exact plan the lexical Understand step and
//! Algorithm 1 give on the shipped inventory: out-of-scope requests, negated tools, several
//! entities, field qualifiers, and entity-only questions.

use schemarouter::artifact::{self, FrozenGraph};
use schemarouter::lint::check_path;
use schemarouter::route::analyzer::lexical::Lexical;
use schemarouter::route::{Options, Plan, route};
use serde_json::{Value, json};
use std::path::Path;
use std::sync::OnceLock;

fn shipped() -> &'static FrozenGraph {
    static G: OnceLock<FrozenGraph> = OnceLock::new();
    G.get_or_init(|| {
        let c = check_path(Path::new(".")).unwrap();
        assert!(!c.has_errors(), "{:?}", c.diagnostics);
        artifact::build::compile(&c.project, &c.index, &c.units)
    })
}

fn plan(q: &str) -> (Plan, Vec<String>) {
    let a = Lexical::new(shipped()).analyse(q);
    (
        route(shipped(), &a.understanding, &Options::default()),
        a.warnings,
    )
}

/// The plan's steps as (tool, params, non-identifier fields).
fn steps(p: &Plan) -> Value {
    Value::Array(
        p.steps
            .iter()
            .map(|s| {
                json!([
                    s.tool,
                    s.params,
                    s.fields
                        .iter()
                        .filter(|f| !f.identifier)
                        .map(|f| f.name.clone())
                        .collect::<Vec<_>>()
                ])
            })
            .collect(),
    )
}

/// Each question's plan has these steps (see [`steps`]).
fn plans_are(cases: &[(&str, Value)]) {
    for (q, want) in cases {
        let (p, _) = plan(q);
        assert_eq!(&steps(&p), want, "{q}");
    }
}

#[test]
fn out_of_scope_requests_get_an_empty_plan_with_the_reason() {
    for (q, reason) in [
        (
            "Order 50 g of lithium hexafluorophosphate from Sigma-Aldrich",
            "an action request (`order`): the inventory's tools only retrieve data, none carries out actions",
        ),
        (
            "Can you post the band gap of ZnO to our Slack channel?",
            "an action request (`post`): the inventory's tools only retrieve data, none carries out actions",
        ),
        (
            "Show me a picture of a bismuth crystal",
            "a media request (`picture`): no tool returns pictures, video or audio",
        ),
        (
            "What is the current share price of LG Chem?",
            "a live-data request (`share price`): no tool serves real-time prices, sensor readings or news",
        ),
        (
            "Will it snow in Busan this weekend?",
            "a weather request (`snow`): no tool serves weather data",
        ),
        (
            "Put the DFT group meeting in my calendar for Monday",
            "a calendar request (`calendar`): no tool manages calendars or reminders",
        ),
        (
            "please simulate the phonon dispersion of GaN for me",
            "a request to run a calculation (`simulate`): the inventory's tools retrieve published and recorded values, none runs a calculation, simulation or job",
        ),
        (
            "Relax this Si supercell with PBE and give me the final energy",
            "a request to run a calculation (`relax`): the inventory's tools retrieve published and recorded values, none runs a calculation, simulation or job",
        ),
        (
            "Could you execute an MD run of liquid Li at 600 K?",
            "a request to run a calculation (`execute`): the inventory's tools retrieve published and recorded values, none runs a calculation, simulation or job",
        ),
        (
            "start the band structure calculation of ZrO2 and ping me when it's done",
            "a request to run a calculation (`when it's done`): the inventory's tools retrieve published and recorded values, none runs a calculation, simulation or job",
        ),
    ] {
        let (p, _) = plan(q);
        assert_eq!(steps(&p), json!([]), "{q}");
        assert_eq!(p.out_of_scope.as_deref(), Some(reason), "{q}");
        assert_eq!(p.intent, None, "{q}");
    }
}

#[test]
fn negated_tools_are_excluded_and_listed() {
    for (q, excluded, want) in [
        (
            "What is the band gap of ZnO, but not from the Materials Project?",
            "materials_project",
            json!([["oqmd", {"composition": "ZnO"}, ["band_gap"]]]),
        ),
        (
            "Formation energy of TiO2 from any database other than OQMD",
            "oqmd",
            json!([["materials_project", {"formula": "TiO2"}, ["formation_energy_per_atom"]]]),
        ),
        (
            "Bulk modulus of SiC excluding AFLOW",
            "aflow",
            json!([["materials_project", {"formula": "SiC"}, ["bulk_modulus.reuss", "bulk_modulus.voigt", "bulk_modulus.vrh"]]]),
        ),
    ] {
        let (p, _) = plan(q);
        assert_eq!(steps(&p), want, "{q}");
        assert_eq!(p.excluded_tools.len(), 1, "{q}");
        assert_eq!(p.excluded_tools[0].requested, excluded, "{q}");
        assert_eq!(
            p.excluded_tools[0].reason, "ruled out by the request",
            "{q}"
        );
    }
}

#[test]
fn several_entities_give_a_list_or_one_step_per_value() {
    // Materials Project's `formula` takes a comma-separated list: one step.
    let (p, _) = plan("Band gaps of GaN, AlN and InN");
    assert_eq!(
        steps(&p),
        json!([["materials_project", {"formula": "GaN,AlN,InN"}, ["band_gap"]]])
    );
    assert_eq!(
        serde_json::to_value(&p.multi_values).unwrap(),
        json!([{"concept": "formula", "values": ["GaN", "AlN", "InN"], "tool": "materials_project", "mode": "list"}])
    );
    // JARVIS's OPTIMADE filter takes one formula: one step per value.
    let (p, _) = plan("Exfoliation energies of MoS2 and WSe2");
    assert_eq!(
        steps(&p),
        json!([
            ["jarvis_dft", {"filter": "chemical_formula_reduced=\"MoS2\""}, ["exfoliation_energy"]],
            ["jarvis_dft", {"filter": "chemical_formula_reduced=\"Se2W\""}, ["exfoliation_energy"]]
        ])
    );
    assert_eq!(
        serde_json::to_value(&p.multi_values).unwrap(),
        json!([{"concept": "formula", "values": ["MoS2", "WSe2"], "tool": "jarvis_dft", "mode": "step_per_value"}])
    );
}

#[test]
fn qualifiers_pick_the_tool_and_the_field() {
    for (q, want) in [
        (
            "TBmBJ band gap of Si",
            json!([["jarvis_dft", {"filter": "chemical_formula_reduced=\"Si\""}, ["mbj_bandgap"]]]),
        ),
        (
            "mBJ gap of GaAs",
            json!([["jarvis_dft", {"filter": "chemical_formula_reduced=\"AsGa\""}, ["mbj_bandgap"]]]),
        ),
        (
            "HSE06 band gap of TiO2",
            json!([["jarvis_dft", {"filter": "chemical_formula_reduced=\"O2Ti\""}, ["hse_gap"]]]),
        ),
        (
            "p-type Seebeck coefficient of SnSe",
            json!([["jarvis_dft", {"filter": "chemical_formula_reduced=\"SeSn\""}, ["p-Seebeck"]]]),
        ),
        // The tool whose field carries the named functional answers, though another tool's
        // field of the concept matches its name more closely.
        (
            "Formation energy of Li2O computed with the OptB88vdW functional?",
            json!([["jarvis_dft", {"filter": "chemical_formula_reduced=\"Li2O\""}, ["formation_energy_peratom"]]]),
        ),
        (
            "optB88-vdW energy above hull of LiFePO4",
            json!([["jarvis_dft", {"filter": "chemical_formula_reduced=\"FeLiO4P\""}, ["ehull"]]]),
        ),
        (
            "Heat capacity of Al at 300 K from AFLOW",
            json!([["aflow", {"nspecies": 1, "species": "Al"}, ["agl_heat_capacity_Cp_300K"]]]),
        ),
    ] {
        let (p, _) = plan(q);
        assert_eq!(steps(&p), want, "{q}");
        assert_eq!(p.unmatched_qualifiers, vec![], "{q}");
    }
    // A qualifier no planned field carries is reported.
    let (p, _) = plan("Voigt-averaged shear modulus of MgO from the Materials Project");
    assert_eq!(
        steps(&p),
        json!([["materials_project", {"formula": "MgO"}, ["shear_modulus.voigt", "shear_modulus.vrh"]]])
    );
    assert_eq!(
        serde_json::to_value(&p.unmatched_qualifiers).unwrap(),
        json!([{"key": "average", "value": "Voigt", "reason": "no planned field carries average = Voigt; the concept's fields are projected whatever their average"}])
    );
}

#[test]
fn entity_only_questions_go_by_the_kind_of_entity() {
    for (q, want, note) in [
        (
            "pyrite?",
            json!([["materials_project", {"formula": "FeS2"}, ["band_gap", "is_metal"]]]),
            "the question names only `FeS2`, a chemical formula (a crystalline material): intent `electronic_property`, the intent declared for questions about a formula",
        ),
        (
            "titania properties",
            json!([["materials_project", {"formula": "TiO2"}, ["band_gap", "is_metal"]]]),
            "the question names only `TiO2`, a chemical formula (a crystalline material): intent `electronic_property`, the intent declared for questions about a formula",
        ),
        (
            "10.1103/PhysRevB.54.11169",
            json!([["openalex", {"filter": "doi:10.1103/PhysRevB.54.11169"}, ["abstract_inverted_index", "display_name", "doi", "publication_year", "title"]]]),
            "the question names only `10.1103/PhysRevB.54.11169`, a paper identifier: intent `paper_content`, the intent declared for questions about a doi",
        ),
    ] {
        let (p, warnings) = plan(q);
        assert_eq!(steps(&p), want, "{q}");
        assert_eq!(warnings, vec![note.to_string()], "{q}");
    }
}

/// Questions from a fresh-user trial on 2026-12-03: lower-case formulas before the property,
/// molecules named in English, PubMed ids written after "PubMed article", a start month, and a
/// tool that can take the identifier asked about ranking first.
#[test]
fn names_ids_and_dates_written_as_people_write_them() {
    plans_are(&[
        (
            "lifepo4 stability?",
            json!([["materials_project", {"formula": "LiFePO4"}, ["energy_above_hull"]]]),
        ),
        (
            "tio2 refractive index",
            json!([["materials_project", {"formula": "TiO2"}, ["n"]]]),
        ),
        (
            "what about aspirin?",
            json!([["pubchem", {"identifier": "aspirin", "namespace": "name", "properties": "MolecularFormula,MolecularWeight,ExactMass,MonoisotopicMass,XLogP,TPSA,Complexity,Charge,HBondDonorCount,HBondAcceptorCount,RotatableBondCount,HeavyAtomCount,IUPACName,Title,InChI,InChIKey,SMILES,ConnectivitySMILES"}, ["IUPACName", "MolecularFormula", "MolecularWeight"]]]),
        ),
        (
            "acetaminophen's InChIKey",
            json!([["pubchem", {"identifier": "acetaminophen", "namespace": "name", "properties": "MolecularFormula,MolecularWeight,ExactMass,MonoisotopicMass,XLogP,TPSA,Complexity,Charge,HBondDonorCount,HBondAcceptorCount,RotatableBondCount,HeavyAtomCount,IUPACName,Title,InChI,InChIKey,SMILES,ConnectivitySMILES"}, ["InChIKey"]]]),
        ),
        (
            // The author list answers; the first and last author fields are variants of it
            // (qualified by position), not asked for.
            "Who are the authors of PubMed article 31452104?",
            json!([["pubmed", {"db": "pubmed", "id": "31452104"}, ["authors[].name"]]]),
        ),
        (
            // OpenAlex has both fields but cannot take a PMID; Europe PMC can.
            "authors and publication date of pmid 31452104",
            json!([["europe_pmc", {"query": "EXT_ID:31452104 AND SRC:MED"}, ["authorList.author[].fullName", "authorString", "firstPublicationDate"]]]),
        ),
        (
            // A count basis stated apart from the property picks the concept of that basis.
            "AFLOW formation enthalpy of NiAl per cell, in eV/cell",
            json!([["aflow", {"nspecies": 2, "species": "Al,Ni"}, ["enthalpy_formation_cell"]]]),
        ),
        (
            "magnetic moment of Fe per atom from AFLOW",
            json!([["aflow", {"nspecies": 1, "species": "Fe"}, ["spin_atom"]]]),
        ),
        (
            "total energy of NaCl in eV/cell from AFLOW",
            json!([["aflow", {"nspecies": 2, "species": "Cl,Na"}, ["energy_cell"]]]),
        ),
        (
            // ... but not when a concept's own words carry the basis.
            "From JARVIS, the formation energy per atom and the exfoliation energy of BN",
            json!([["jarvis_dft", {"filter": "chemical_formula_reduced=\"BN\""}, ["exfoliation_energy", "formation_energy_peratom"]]]),
        ),
        (
            // The topic is before the tool named after it; the formula is part of the topic.
            "papers about TiO2 photocatalysis on arXiv, titles and abstracts",
            json!([["arxiv", {"search_query": "all:\"TiO2 photocatalysis\""}, ["summary", "title"]]]),
        ),
        (
            "papers on perovskite solar cells on arXiv",
            json!([["arxiv", {"search_query": "all:\"perovskite solar cells\""}, ["arxiv:doi", "title"]]]),
        ),
        (
            "Search Europe PMC for articles on lithium in drinking water",
            json!([["europe_pmc", {"query": "lithium in drinking water"}, ["doi", "pubYear", "title"]]]),
        ),
        (
            "DART filings of corp code 00164779 since January 2024",
            json!([["dart", {"bgn_de": "20240101", "corp_code": "00164779"}, ["rcept_dt", "report_nm"]]]),
        ),
    ]);
}

/// One everyday word that is also a concept's name is no evidence when the rest of the
/// question is about something nothing declared explains; a concept word alone still routes.
#[test]
fn a_lone_concept_word_in_an_unrelated_question_plans_nothing() {
    for (q, note) in [
        (
            "What was the final score of the World Cup final?",
            "only the word `score` matches a declared concept, and nothing declared explains `final World Cup final`: the question is about something the inventory does not hold",
        ),
        (
            "What's my credit score?",
            "only the word `score` matches a declared concept, and nothing declared explains `credit`: the question is about something the inventory does not hold",
        ),
        (
            "What's the revenue of the local bakery?",
            "only the word `revenue` matches a declared concept, and nothing declared explains `local bakery`: the question is about something the inventory does not hold",
        ),
    ] {
        let (p, warnings) = plan(q);
        assert_eq!(steps(&p), json!([]), "{q}");
        assert_eq!(p.intent, None, "{q}");
        assert_eq!(warnings, vec![note.to_string()], "{q}");
    }
    let (p, _) = plan("What's the band gap?");
    assert_eq!(
        steps(&p),
        json!([["materials_project", {}, ["band_gap"]]]),
        "a concept word alone"
    );
}

#[test]
fn formulas_in_parentheses_ranges_of_years_lists_and_per_atom_units() {
    plans_are(&[
        (
            // The parentheses are the sentence's, not a group of the formula.
            "Band gap of hematite (Fe2O3) from MP",
            json!([["materials_project", {"formula": "Fe2O3"}, ["band_gap"]]]),
        ),
        (
            "what band gap did we measure for (CdTe)?",
            json!([["lab_notebook", {"composition": "CdTe"}, ["measured_band_gap"]]]),
        ),
        (
            // The concept's own unit is per atom: the stated basis keeps it.
            "MoS2 exfoliation energy, eV/atom",
            json!([["jarvis_dft", {"filter": "chemical_formula_reduced=\"MoS2\""}, ["exfoliation_energy"]]]),
        ),
        (
            "jarvis p-type seebeck and hole effective mass of snse",
            json!([["jarvis_dft", {"filter": "chemical_formula_reduced=\"SeSn\""}, ["avg_hole_mass", "p-Seebeck"]]]),
        ),
        (
            "cds band gap, oqmd vs aflow",
            json!([
                ["oqmd", {"composition": "CdS"}, ["band_gap"]],
                ["aflow", {"nspecies": 2, "species": "Cd,S"}, ["Egap"]]
            ]),
        ),
        (
            "OpenAlex works on perovskite LEDs published 2019–2021: titles",
            json!([["openalex", {"filter": "from_publication_date:2019-01-01,to_publication_date:2021-12-31", "search": "perovskite LEDs"}, ["display_name", "title"]]]),
        ),
        (
            // The years are cut from the topic.
            "Crossref works on perovskite solar cells between 2018 and 2020",
            json!([["crossref", {"filter": "from-pub-date:2018,until-pub-date:2020", "query": "perovskite solar cells"}, ["title"]]]),
        ),
        (
            // One year: both ends; "published in" is no `journal` then.
            "papers on graphene published in 2020",
            json!([["openalex", {"filter": "from_publication_date:2020-01-01,to_publication_date:2020-12-31", "search": "graphene"}, ["display_name", "doi", "publication_year", "title"]]]),
        ),
        (
            // A list's items are apart: no `space group number` across the comma.
            "space group, number of sites of mp-149",
            json!([["materials_project", {"material_ids": "mp-149"}, ["nsites", "symmetry.hall", "symmetry.number", "symmetry.symbol"]]]),
        ),
        (
            "find 3 arXiv papers on ethylene glycol electrolytes",
            json!([["arxiv", {"max_results": 3, "search_query": "all:\"ethylene glycol electrolytes\""}, ["arxiv:doi", "title"]]]),
        ),
        (
            "who published doi:10.1016/j.joule.2018.01.004? (crossref)",
            json!([["crossref", {"filter": "doi:10.1016/j.joule.2018.01.004"}, ["publisher"]]]),
        ),
        (
            // `for` after the tool's name introduces the topic.
            "look up arXiv for MXene supercapacitors",
            json!([["arxiv", {"search_query": "all:\"MXene supercapacitors\""}, ["arxiv:doi", "title"]]]),
        ),
        (
            "search Stack Exchange for Hubbard U NiO",
            json!([["qa_forum", {"q": "Hubbard U NiO", "site": "mattermodeling"}, ["accepted_answer", "title"]]]),
        ),
        (
            "oqmd: prototype, number of element types and cell volume for NaCl",
            json!([["oqmd", {"composition": "NaCl"}, ["ntypes", "prototype", "volume"]]]),
        ),
    ]);
}

#[test]
fn a_term_to_define_or_translate_with_nothing_named_plans_nothing() {
    for (q, reason) in [
        (
            "Translate 'band gap' into Japanese.",
            "a translation request (`translate`): no tool translates text",
        ),
        (
            "what does band gap mean?",
            "a request to define or explain a term (`what does ... mean`) with no material, compound, paper or company named: the tools return records, not explanations",
        ),
        (
            "Explain what a band gap is",
            "a request to define or explain a term (`explain`) with no material, compound, paper or company named: the tools return records, not explanations",
        ),
        (
            "Define exfoliation energy",
            "a request to define or explain a term (`define`) with no material, compound, paper or company named: the tools return records, not explanations",
        ),
    ] {
        let (p, warnings) = plan(q);
        assert_eq!(steps(&p), json!([]), "{q}");
        assert_eq!(p.intent, None, "{q}");
        assert_eq!(warnings, vec![format!("out of scope: {reason}")], "{q}");
    }
    // Something named: a data question about it.
    let (p, _) = plan("Explain why GaN has a wide band gap");
    assert_eq!(
        steps(&p),
        json!([["materials_project", {"formula": "GaN"}, ["band_gap"]]])
    );
}

/// A named tool that declares no field for the requested concept is still planned (it was
/// asked for), and the plan says its step fetches identifiers only; the tools that have the
/// concept are not warned about. A tool that publishes the concept only in its narrower
/// concepts (JARVIS's Voigt bulk modulus) is answered with those. Two lower-case formulas in
/// coordination are both bound.
#[test]
fn a_named_tool_without_the_concept_is_reported_and_coordinated_formulas_are_kept() {
    let (p, _) = plan("bulk modulus of Si in GPa: MP vs AFLOW vs JARVIS");
    assert_eq!(
        steps(&p),
        json!([
            ["materials_project", {"formula": "Si"}, ["bulk_modulus.reuss", "bulk_modulus.voigt", "bulk_modulus.vrh"]],
            ["aflow", {"nspecies": 1, "species": "Si"}, ["ael_bulk_modulus_vrh"]],
            ["jarvis_dft", {"filter": "chemical_formula_reduced=\"Si\""}, ["bulk_modulus_kv"]],
        ])
    );
    assert!(p.warnings.is_empty(), "{:?}", p.warnings);
    let (p, _) = plan("work function of Si: MP vs JARVIS");
    assert_eq!(
        p.warnings,
        [
            "`jarvis_dft/dft_3d` was named, but declares no field for `work_function`; its step fetches only the core fields of the intent's groups"
        ]
    );
    let (p, _) = plan("band gaps of zno and zns from materials project");
    assert_eq!(
        steps(&p),
        json!([["materials_project", {"formula": "ZnO,ZnS"}, ["band_gap"]]])
    );
}

/// Fields that carry the same concepts are variants of one value: without a qualifier in the
/// question, the plain one answers (`fulljournalname`, not the abbreviated `source`; the
/// publication date, not the electronic one). Fields that carry other concepts too (an account
/// name beside the amount it labels) are no variants and stay.
#[test]
fn plain_fields_answer_plain_questions() {
    plans_are(&[
        (
            "journal and publication date of PubMed article 31452104",
            json!([["pubmed", {"db": "pubmed", "id": "31452104"}, ["fulljournalname", "pubdate", "sortpubdate"]]]),
        ),
        (
            "DART에서 고유번호 00126380 회사의 2023년 사업보고서 기준 매출액 알려줘",
            json!([["dart", {"bsns_year": "2023", "corp_code": "00126380", "reprt_code": "11011"}, ["account_nm", "thstrm_amount"]]]),
        ),
    ]);
}

/// "first author" and "last author" ask for the author list's variant of that position (the
/// `position` qualifier); "the authors" for the list.
#[test]
fn first_and_last_authors_are_positions_of_the_author_list() {
    plans_are(&[
        (
            "Who is the first author of PubMed article 31452104?",
            json!([["pubmed", {"db": "pubmed", "id": "31452104"}, ["sortfirstauthor"]]]),
        ),
        (
            "Who are the authors of PubMed article 31452104?",
            json!([["pubmed", {"db": "pubmed", "id": "31452104"}, ["authors[].name"]]]),
        ),
    ]);
}

/// A tool that publishes a requested concept only in its narrower concepts (JARVIS's Voigt
/// moduli, `bulk_modulus_voigt` beside the requested `bulk_modulus`) is answered with those,
/// not with the intent's groups; a requested qualifier they contradict keeps them out.
#[test]
fn a_concept_published_only_in_its_variants_is_answered_with_them() {
    plans_are(&[
        (
            "bulk modulus of Si in JARVIS",
            json!([["jarvis_dft", {"filter": "chemical_formula_reduced=\"Si\""}, ["bulk_modulus_kv"]]]),
        ),
        (
            "shear modulus of MgO in JARVIS",
            json!([["jarvis_dft", {"filter": "chemical_formula_reduced=\"MgO\""}, ["shear_modulus_gv"]]]),
        ),
    ]);
}

/// Questions about values already computed are data questions, whatever verb names the
/// computation ("the relaxed structure", "computed band gap", "how was it run").
#[test]
fn a_computed_value_is_no_request_to_run_a_calculation() {
    for q in [
        "What is the computed band gap of GaN in the Materials Project?",
        "relaxed lattice volume of Si in OQMD",
        "Which functional was used to run the JARVIS calculation of MoS2's band gap?",
    ] {
        let (p, _) = plan(q);
        assert_eq!(p.out_of_scope, None, "{q}");
        assert!(!p.steps.is_empty(), "{q}");
    }
}

/// A chemical system written as dash-joined element symbols ("the Li-Fe-P-O system", "Fe-O",
/// "Si-*") is one value for the `chemsys` parameter, not the formulas of its first elements
/// (a fresh user's trial: `formula = "Li,Fe"`, P and O dropped).
#[test]
fn a_chemical_system_is_read_whole() {
    plans_are(&[
        (
            "Which phases in the Li-Fe-P-O system are thermodynamically stable?",
            json!([[
                "materials_project",
                {"chemsys": "Li-Fe-P-O"},
                ["energy_above_hull", "is_stable"]
            ]]),
        ),
        (
            "stable compounds in the Fe-O chemical system",
            json!([[
                "materials_project",
                {"chemsys": "Fe-O"},
                ["energy_above_hull", "formation_energy_per_atom", "is_stable"]
            ]]),
        ),
        (
            "materials of the Si-* system in Materials Project",
            json!([[
                "materials_project",
                {"chemsys": "Si-*"},
                [
                    "symmetry.crystal_system",
                    "symmetry.hall",
                    "symmetry.number",
                    "symmetry.symbol"
                ]
            ]]),
        ),
    ]);
}
