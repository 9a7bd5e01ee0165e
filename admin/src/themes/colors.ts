/** The product's colours: teal, with red for danger and green for success. They fill buttons, bars, dots and indicators. */
export const colors = { main: '#009688', danger: '#E53E3E', success: '#48BB78' };

/**
 * Text in those colours, where the brand colour itself is too light or too dark to read (WCAG AA: 4.5:1 for
 * text). Teal #009688 on white is 3.67:1 and on the dark paper 3.26:1; #E53E3E on white is 4.13:1 and on the
 * dark paper 2.91:1. Text on a teal fill is black (5.72:1; white is 3.67:1); text on a red fill is white on a
 * deeper red (5.47:1). A state's words (a chip in a list) take the shade of its tone.
 * Dark mode's shades are read on the paper #2d3748, on a selected row (#3e4757) and in a focused filled field
 * (#404958), the lightest of the three (where #4DB6AC was 3.72:1).
 */
export const textColors = {
  // On white: 6.61:1, 7.53:1, 6.73:1, 6.53:1, 5.42:1; above 4.5:1 on a selected row (#f5f5f5) and on a focused,
  // hovered filled field (#ebebec: 5.55:1 for the teal, where #00796B was 4.46:1).
  light: { primary: '#00695C', error: '#9B2C2C', success: '#276749', warning: '#9C4221', info: '#2B6CB0' },
  // On #404958, the least of the three: 4.87:1, 5.29:1, 6.21:1, 6.4:1, 5.29:1.
  dark: { primary: '#80CBC4', error: '#FEB2B2', success: '#9AE6B4', warning: '#FBD38D', info: '#90CDF4' },
};
