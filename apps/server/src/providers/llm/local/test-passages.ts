/** Passages written for the generator tests, in the style of the texts where the issues found defects. */
export const PRINTING = `Before the printing press, books in Europe were copied by hand. Monks and scribes produced each copy slowly, and a single book could take a year to finish. Because books were so costly, few people owned any at all.

Around 1440, a goldsmith named Johannes Gutenberg began to build a press in the city of Mainz. He cast each letter separately in an alloy of lead, tin and antimony. The metal letters could be arranged into words, printed, and then used again. Gutenberg also mixed an oily ink that stuck to the metal type.

In 1455 his workshop printed a famous Bible. About 180 copies were printed, and fewer than fifty survive today. Gutenberg borrowed money from a merchant named Johann Fust, who later sued him and took over the workshop.

Printing spread quickly. By 1500, printers worked in more than two hundred cities. Sailors and merchants carried printed books to distant ports, and readers enjoyed the accounts of the various voyages to Africa and Asia. Historians of these expeditions still read the accounts today.`;

export const GLACIER = `A glacier is a slow river of ice. Glaciers form in cold places where more snow falls in winter than melts in summer. Year after year the snow piles up and presses down, and the bottom layers turn into hard blue ice.

When the ice becomes thick enough, the glacier begins to move downhill under its own weight. A glacier moves only a few centimetres or metres each day. As it moves, the glacier scrapes the ground and carries rocks, sand and gravel. Over thousands of years glaciers carve deep valleys shaped like the letter U.

Some glaciers reach the sea. Near the Pacific Ocean in Alaska, huge pieces of ice break off the front of a glacier and fall into the water. These floating pieces are called icebergs. Scientists measure glaciers every year because many of them are shrinking as the climate warms.`;
