// The AsyncHTTPClient transport lands with the network boundary.
import Seams
