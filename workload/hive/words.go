package hive

// The word lists and weights the data generator draws from. They are part
// of the data set's definition: changing one changes every generated table
// (bump GeneratorVersion).

// firstNames are customers' and authors' first names (the report's filter
// name 'Asher MATTHEWS' is among the combinations).
var firstNames = [...]string{
	"Aaron", "Abigail", "Adam", "Aiden", "Alexander", "Alice", "Amelia", "Andrew", "Anna", "Anthony",
	"Asher", "Ava", "Benjamin", "Brandon", "Brian", "Caleb", "Camila", "Carlos", "Charles", "Charlotte",
	"Chloe", "Christopher", "Daniel", "David", "Dylan", "Eleanor", "Elijah", "Elizabeth", "Ella", "Emily",
	"Emma", "Ethan", "Evelyn", "Gabriel", "Grace", "Hannah", "Harper", "Henry", "Isaac", "Isabella",
	"Jack", "Jackson", "Jacob", "James", "Jayden", "Jennifer", "Jessica", "John", "Jonathan", "Joseph",
	"Joshua", "Julia", "Justin", "Kevin", "Layla", "Leah", "Liam", "Lily", "Logan", "Lucas",
	"Luke", "Madison", "Maria", "Mason", "Matthew", "Mia", "Michael", "Mila", "Natalie", "Nathan",
	"Noah", "Nora", "Oliver", "Olivia", "Owen", "Patricia", "Paul", "Riley", "Robert", "Ryan",
	"Samuel", "Sarah", "Scarlett", "Sebastian", "Sofia", "Sophia", "Stella", "Steven", "Susan", "Thomas",
	"Victoria", "William", "Wyatt", "Zoe", "Zoey", "Grayson", "Hazel", "Levi", "Aria", "Violet",
}

// lastNames are customers' (upper case, as in the report) and authors'
// last names.
var lastNames = [...]string{
	"ADAMS", "ALLEN", "ANDERSON", "BAKER", "BELL", "BROOKS", "BROWN", "CAMPBELL", "CARTER", "CLARK",
	"COLLINS", "COOK", "COOPER", "CRUZ", "DAVIS", "DIAZ", "EDWARDS", "EVANS", "FLORES", "GARCIA",
	"GOMEZ", "GONZALEZ", "GRAY", "GREEN", "HALL", "HARRIS", "HERNANDEZ", "HILL", "HOWARD", "HUGHES",
	"JACKSON", "JAMES", "JOHNSON", "JONES", "KELLY", "KIM", "KING", "LEE", "LEWIS", "LOPEZ",
	"MARTIN", "MARTINEZ", "MATTHEWS", "MILLER", "MITCHELL", "MOORE", "MORALES", "MORGAN", "MORRIS", "MURPHY",
	"MYERS", "NELSON", "NGUYEN", "ORTIZ", "PARKER", "PEREZ", "PETERSON", "PHILLIPS", "PRICE", "RAMIREZ",
	"REED", "REYES", "RICHARDSON", "RIVERA", "ROBERTS", "ROBINSON", "RODRIGUEZ", "ROGERS", "ROSS", "SANCHEZ",
	"SANDERS", "SCOTT", "SMITH", "STEWART", "SULLIVAN", "TAYLOR", "THOMAS", "THOMPSON", "TORRES", "TURNER",
	"WALKER", "WARD", "WATSON", "WHITE", "WILLIAMS", "WILSON", "WOOD", "WRIGHT", "YOUNG", "BENNETT",
	"BUTLER", "FOSTER", "GRIFFIN", "HAYES", "JENKINS", "LONG", "PERRY", "POWELL", "RUSSELL", "WASHINGTON",
}

// categories are the book categories, most popular first; catWeights give
// their shares (a long tail, so the top ten of the report's group-by is
// well defined).
var categories = [...]string{
	"FICTION", "MYSTERY", "ROMANCE", "SCIENCE FICTION", "FANTASY", "BIOGRAPHY", "HISTORY", "CHILDREN",
	"SELF-HELP", "BUSINESS", "COOKING", "TRAVEL", "SCIENCE", "RELIGION", "HEALTH", "POETRY",
	"ART", "COMICS", "HORROR", "SPORTS", "COMPUTERS", "PHILOSOPHY", "EDUCATION", "REFERENCE",
}

var catWeights = [...]int64{
	1700, 1330, 1110, 960, 850, 760, 690, 630, 580, 540, 500, 470,
	440, 415, 392, 372, 354, 338, 323, 309, 296, 285, 274, 264,
}

// states are the 50 US states and DC with stateWeights ~ their population
// in 2020 (in 10 000s), so customers cluster where people live.
var states = [...]string{
	"CA", "TX", "FL", "NY", "PA", "IL", "OH", "GA", "NC", "MI", "NJ", "VA", "WA", "AZ", "MA", "TN", "IN",
	"MD", "MO", "WI", "CO", "MN", "SC", "AL", "LA", "KY", "OR", "OK", "CT", "UT", "IA", "NV", "AR", "MS",
	"KS", "NM", "NE", "ID", "WV", "HI", "NH", "ME", "RI", "MT", "DE", "SD", "ND", "AK", "DC", "VT", "WY",
}

var stateWeights = [...]int64{
	3954, 2915, 2154, 2020, 1300, 1281, 1180, 1071, 1044, 1008, 929, 863, 771, 715, 703, 691, 679,
	618, 615, 589, 577, 571, 512, 502, 466, 450, 424, 396, 361, 327, 319, 310, 301, 296,
	294, 212, 196, 184, 179, 146, 138, 136, 110, 108, 99, 89, 78, 73, 69, 64, 58,
}

var cities = [...]string{
	"Springfield", "Franklin", "Greenville", "Bristol", "Clinton", "Fairview", "Salem", "Madison", "Georgetown", "Arlington",
	"Ashland", "Burlington", "Manchester", "Milton", "Newport", "Oxford", "Riverside", "Auburn", "Dayton", "Lexington",
	"Clayton", "Jackson", "Marion", "Mount Vernon", "Winchester", "Centerville", "Dover", "Hudson", "Kingston", "Lebanon",
	"Troy", "Cleveland", "Oakland", "Portland", "Columbia", "Richmond", "Hamilton", "Chester", "Warren", "Plymouth",
}

var streets = [...]string{
	"Main", "Oak", "Pine", "Maple", "Cedar", "Elm", "Washington", "Lake", "Hill", "Park",
	"Walnut", "Sunset", "Lincoln", "Jackson", "Church", "River", "Spring", "Ridge", "Highland", "Meadow",
	"Forest", "Willow", "Chestnut", "Jefferson", "Center", "Mill", "Prospect", "Valley", "Franklin", "Adams",
}

var streetKinds = [...]string{"St", "Ave", "Rd", "Blvd", "Ln", "Dr", "Ct", "Way"}

var adjectives = [...]string{
	"Silent", "Hidden", "Last", "Broken", "Golden", "Secret", "Lost", "Dark", "Burning", "Frozen",
	"Wild", "Crimson", "Distant", "Forgotten", "Bright", "Quiet", "Endless", "Fallen", "Hollow", "Iron",
	"Little", "Midnight", "New", "Old", "Painted", "Restless", "Scarlet", "Shining", "Stolen", "Wandering",
}

var nouns = [...]string{
	"River", "Garden", "House", "Kingdom", "Road", "Sea", "Mountain", "City", "Forest", "Light",
	"Shadow", "Storm", "Journey", "Promise", "Letter", "Island", "Bridge", "Crown", "Dream", "Fire",
	"Heart", "Key", "Map", "Mirror", "Night", "Ocean", "Song", "Star", "Tower", "Winter",
}

// priceTiers are book prices in cents: a tier is drawn by weight, then a
// price uniformly inside it, ending in .99 three times in four (shelf
// prices), else any cents.
var priceTiers = [...]struct{ lo, hi, weight int64 }{
	{199, 499, 8}, {500, 999, 22}, {1000, 1999, 38}, {2000, 3999, 20}, {4000, 7999, 9}, {8000, 19999, 3},
}

// quantityWeights are the shares of quantities 1..10 in a transaction.
var quantityWeights = [...]int64{50, 20, 10, 7, 5, 3, 2, 1, 1, 1}
