/** Passages written for the generator tests, in the style of the texts where the issues found defects. */
export const PRINTING = `Before the printing press, books in Europe were copied by hand. Monks and scribes produced each copy slowly, and a single book could take a year to finish. Because books were so costly, few people owned any at all.

Around 1440, a goldsmith named Johannes Gutenberg began to build a press in the city of Mainz. He cast each letter separately in an alloy of lead, tin and antimony. The metal letters could be arranged into words, printed, and then used again. Gutenberg also mixed an oily ink that stuck to the metal type.

In 1455 his workshop printed a famous Bible. About 180 copies were printed, and fewer than fifty survive today. Gutenberg borrowed money from a merchant named Johann Fust, who later sued him and took over the workshop.

Printing spread quickly. By 1500, printers worked in more than two hundred cities. Sailors and merchants carried printed books to distant ports, and readers enjoyed the accounts of the various voyages to Africa and Asia. Historians of these expeditions still read the accounts today.`;

export const GLACIER = `A glacier is a slow river of ice. Glaciers form in cold places where more snow falls in winter than melts in summer. Year after year the snow piles up and presses down, and the bottom layers turn into hard blue ice.

When the ice becomes thick enough, the glacier begins to move downhill under its own weight. A glacier moves only a few centimetres or metres each day. As it moves, the glacier scrapes the ground and carries rocks, sand and gravel. Over thousands of years glaciers carve deep valleys shaped like the letter U.

Some glaciers reach the sea. Near the Pacific Ocean in Alaska, huge pieces of ice break off the front of a glacier and fall into the water. These floating pieces are called icebergs. Scientists measure glaciers every year because many of them are shrinking as the climate warms.`;

/** An informational passage with causes, conditions, dates, places and the passage's own terms (forms tests). */
export const LIGHTHOUSES = `For thousands of years, sailors feared rocky coasts at night. Ships that could not see the shore often struck hidden rocks and sank.

Around 280 BC, the people of Alexandria built a great tower called the Pharos. A fire burned at its top, so ships could find the harbour in the dark. Later lighthouses used oil lamps and large mirrors.

In 1822, a French scientist named Augustin Fresnel designed a new kind of lens. The lens bent the light into a narrow beam, so the beam could be seen more than twenty miles away. Fresnel tested his first lens in Paris. Soon lighthouses in France, England and America used lenses like his.

Each lighthouse had its own pattern of flashes. This pattern is called a signature. When sailors saw the signature, they knew exactly which lighthouse they were passing. Keepers had to wind the clockwork that turned the lens every few hours. Because the lamps burned all night, keepers rarely slept before dawn.

Today most lighthouses run automatically. About 700 lighthouses still stand along the coasts of the United States, and many of them are now museums. Visitors climb the narrow stairs to see the view that keepers once watched every night.`;

/** A short story told in order, with a few named characters (forms tests). */
export const HARBOUR_STORY = `Maya woke before sunrise and pulled on her boots. She walked down to the harbour with her grandfather, Elias. Elias untied the small blue boat. Maya pushed it away from the dock. The two of them rowed out past the lighthouse. Elias showed Maya how to cast the net. Maya caught three silver fish. Suddenly a dark cloud covered the sun. Elias turned the boat toward the shore. The rain started before they reached the dock. Maya's mother, Rosa, waited on the pier with a towel. Rosa wrapped the towel around Maya's shoulders. They carried the fish home in a bucket. Grandfather cooked the fish for dinner that night.`;
