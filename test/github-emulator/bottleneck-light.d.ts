// bottleneck ships types for its main entry only; its light build (what @octokit/plugin-throttling
// and @octokit/plugin-retry use) has the same API.
declare module 'bottleneck/light.js' {
  import Bottleneck from 'bottleneck';
  export default Bottleneck;
}
